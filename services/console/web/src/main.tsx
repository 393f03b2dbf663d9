import { render } from 'preact'
import { App } from './app.js'
import './styles/base.css'
import './styles/layout.css'
import './styles/components.css'

render(<App />, document.getElementById('app')!)
