import { embedNonBlank, type Embedder } from './embedder.js'

export interface OpenAiEmbedderOptions {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string
  model: string
  apiKey?: string
  timeoutMs?: number
  batchSize?: number
  retries?: number
}

interface EmbeddingsResponse { data?: Array<{ index?: number, embedding?: unknown }> }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function unit (values: number[]): Float32Array {
  const out = Float32Array.from(values)
  const norm = Math.sqrt(out.reduce((sum, x) => sum + x * x, 0))
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm
  return out
}

/**
 * Embeddings from any OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp server): batched, with a timeout, and bounded retries with backoff on 429 and 5xx.
 * The vector size is learned from a first call, so a misconfigured endpoint fails at start-up.
 */
export async function openAiEmbedder (opts: OpenAiEmbedderOptions): Promise<Embedder> {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/embeddings`
  const timeoutMs = opts.timeoutMs ?? 15_000
  const retries = opts.retries ?? 2
  const batchSize = opts.batchSize ?? 64

  async function call (input: string[]): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      let response: Response
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.apiKey === undefined ? {} : { authorization: `Bearer ${opts.apiKey}` }) },
          body: JSON.stringify({ model: opts.model, input }),
          signal: AbortSignal.timeout(timeoutMs)
        })
      } catch (err) {
        if (attempt < retries) { await sleep(250 * 2 ** attempt); continue }
        throw new Error(`embeddings endpoint ${url} did not answer: ${(err as Error).message}`)
      }
      if ((response.status === 429 || response.status >= 500) && attempt < retries) {
        await response.body?.cancel()
        await sleep(250 * 2 ** attempt)
        continue
      }
      if (!response.ok) throw new Error(`embeddings endpoint ${url} answered ${response.status}: ${(await response.text()).slice(0, 200)}`)
      const body = await response.json() as EmbeddingsResponse
      const data = body.data ?? []
      if (data.length !== input.length) throw new Error(`embeddings endpoint ${url} returned ${data.length} vectors for ${input.length} texts`)
      // The API may return items out of order; `index` says where each belongs.
      const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      return ordered.map((d) => {
        if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number')) throw new Error(`embeddings endpoint ${url} returned a malformed vector`)
        return unit(d.embedding as number[])
      })
    }
  }

  const probe = await call(['dimension probe'])
  const dimensions = probe[0]!.length
  return {
    dimensions,
    embed: (texts) => embedNonBlank(texts, dimensions, async (some) => {
      const out: Float32Array[] = []
      for (let start = 0; start < some.length; start += batchSize) out.push(...await call(some.slice(start, start + batchSize)))
      for (const v of out) if (v.length !== dimensions) throw new Error(`embeddings endpoint ${url} changed its vector size from ${dimensions} to ${v.length}`)
      return out
    })
  }
}
