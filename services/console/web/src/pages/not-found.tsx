import { useTitle } from '../hooks.js'

export function NotFound () {
  useTitle('Not found')
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>There is no page at this address. <a href='/'>Go to your projects</a></p>
    </>
  )
}
