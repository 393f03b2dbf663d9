/**
 * The judged query set (relevance.json) and the assistant check set (assistant-set.json) over the
 * demo catalog, written down as grading rules so the judgement can be reviewed and redone when the
 * demo catalog changes:
 *
 *   node --import tsx services/search/catalog/judge.ts          # review: prints every judged list
 *   node --import tsx services/search/catalog/judge.ts --write  # and writes both files
 *
 * Grades: 3 = exactly what the query asks for (right kind of product with every stated attribute);
 * 2 = the right kind of product missing a secondary attribute, or a close substitute that has them;
 * 1 = marginal, a related product a shopper might still click. For brand queries only the brand's
 * own products count. Every rule reads only the product's own fields (title, description, tags,
 * price, stock, rating), and every list was read through before it was kept.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { categories } from './data.js'
import type { Product } from './generate.js'
import { compileFilter } from './mini-filter.js'

type Kind = 'exact' | 'typo' | 'paraphrase' | 'filtered'
type Grade = 0 | 1 | 2 | 3

interface JudgedQuery {
  query: string
  kind: Kind
  filters?: string
  relevant: Record<string, 1 | 2 | 3>
}

interface AssistantCase {
  message: string
  /** The best products, at most five: recall counts these. */
  expected: string[]
  /** Every product that meets what the message asks (`expected` among them): precision counts these. */
  acceptable: string[]
  classification: 'question' | 'request'
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url))
const catalog: Product[] = JSON.parse(readFileSync(here('./demo-catalog.json'), 'utf8'))

const typeNames = categories.flatMap((c) => c.types.map((t) => t.name)).sort((a, b) => b.length - a.length)
/** The product type, read off the end of the title ("… Hiking Boot", "… Ultrabook (16GB RAM, 512GB SSD)"). */
function typeOf (p: Product): string {
  const bare = p.title.replace(/ \([^)]*\)$/, '')
  return typeNames.find((t) => bare.endsWith(' ' + t)) ?? ''
}
const is = (p: Product, ...types: string[]) => types.includes(typeOf(p))
const tag = (p: Product, ...tags: string[]) => tags.some((t) => p.tags.includes(t))
const title = (p: Product, re: RegExp) => re.test(p.title)

type Rule = (p: Product) => Grade

interface QueryDef { query: string, kind: Kind, filters?: string, grade: Rule }

const brandType = (brand: string, type: string, related: Record<string, Grade> = {}): Rule => (p) => {
  if (p.brand !== brand) return 0
  if (is(p, type)) return 3
  return related[typeOf(p)] ?? 0
}

const queries: QueryDef[] = [
  // exact: brand + product type, model names, spec words
  { query: 'Trailmark hiking boots', kind: 'exact', grade: brandType('Trailmark', 'Hiking Boot', { 'Winter Boot': 1, 'Hiking Shoe': 1 }) },
  { query: 'Auralis headphones', kind: 'exact', grade: (p) => p.brand !== 'Auralis' ? 0 : is(p, 'Over-Ear Headphones', 'Studio Headphones') ? 3 : is(p, 'Open-Ear Sport Headphones') ? 2 : is(p, 'Wireless Earbuds') ? 1 : 0 },
  { query: 'Quietwave wireless earbuds', kind: 'exact', grade: brandType('Quietwave', 'Wireless Earbuds', { 'Open-Ear Sport Headphones': 1 }) },
  { query: 'Kettleby espresso machine', kind: 'exact', grade: brandType('Kettleby', 'Espresso Machine') },
  { query: 'Velora carbon racing shoe', kind: 'exact', grade: (p) => p.brand === 'Velora' && is(p, 'Racing Shoe') ? (tag(p, 'carbon plate') ? 3 : 2) : 0 },
  { query: 'Pinecrest backpacking tent', kind: 'exact', grade: brandType('Pinecrest', 'Backpacking Tent', { 'Family Camping Tent': 1 }) },
  { query: 'Corvane smartwatch', kind: 'exact', grade: brandType('Corvane', 'Smartwatch', { 'Fitness Tracker': 1 }) },
  { query: 'Cuisor multi-cooker', kind: 'exact', grade: brandType('Cuisor', 'Multi-Cooker') },
  { query: 'Lumetra ultrabook', kind: 'exact', grade: brandType('Lumetra', 'Ultrabook', { '2-in-1 Laptop': 1 }) },
  { query: 'Spokeworks electric bike', kind: 'exact', grade: brandType('Spokeworks', 'Electric Bike') },
  { query: 'Boomcraft bluetooth speaker', kind: 'exact', grade: brandType('Boomcraft', 'Bluetooth Speaker', { Soundbar: 1 }) },
  { query: 'Hearthwell knife block set', kind: 'exact', grade: brandType('Hearthwell', 'Knife Block Set', { "Chef's Knife": 1 }) },
  { query: 'Ironroot adjustable dumbbells', kind: 'exact', grade: brandType('Ironroot', 'Adjustable Dumbbells', { Kettlebell: 1 }) },
  { query: 'Pulsetrack field watch', kind: 'exact', grade: brandType('Pulsetrack', 'Field Watch') },
  { query: 'Zentel tablet', kind: 'exact', grade: brandType('Zentel', 'Tablet') },
  { query: 'Dewlane shampoo', kind: 'exact', grade: brandType('Dewlane', 'Shampoo') },
  { query: 'Starfall sleeping bag', kind: 'exact', grade: brandType('Starfall', 'Sleeping Bag', { 'Sleeping Pad': 1 }) },
  { query: 'Quillbyte gaming laptop', kind: 'exact', grade: brandType('Quillbyte', 'Gaming Laptop', { Ultrabook: 1, '2-in-1 Laptop': 1, Chromebook: 1 }) },
  { query: '800-fill down jacket', kind: 'exact', grade: (p) => is(p, 'Down Jacket') ? (tag(p, '800 fill') ? 3 : 0) : 0 },
  { query: 'Ethiopia Yirgacheffe coffee beans', kind: 'exact', grade: (p) => is(p, 'Whole Bean Coffee') ? (title(p, /Yirgacheffe/) ? 3 : 0) : 0 },
  { query: '34-inch ultrawide monitor', kind: 'exact', grade: (p) => is(p, 'Monitor') ? (tag(p, 'ultrawide') ? 3 : 1) : 0 },
  { query: 'Harrowgate down jacket', kind: 'exact', grade: brandType('Harrowgate', 'Down Jacket', { 'Insulated Parka': 1, 'Insulated Vest': 1 }) },

  // typo
  { query: 'waterprof hikng boots', kind: 'typo', grade: (p) => tag(p, 'waterproof') && is(p, 'Hiking Boot') ? 3 : 0 },
  { query: 'waterprof trail runing shoes', kind: 'typo', grade: (p) => !tag(p, 'waterproof') ? 0 : is(p, 'Trail Running Shoe') ? 3 : is(p, 'Hiking Shoe') ? 1 : 0 },
  { query: 'noise cancelling headphnes', kind: 'typo', grade: (p) => tag(p, 'noise cancelling') ? (is(p, 'Over-Ear Headphones') ? 3 : 0) : 0 },
  { query: 'espreso machine', kind: 'typo', grade: (p) => is(p, 'Espresso Machine') ? 3 : 0 },
  { query: 'chromebok', kind: 'typo', grade: (p) => is(p, 'Chromebook') ? 3 : 0 },
  { query: 'dutch ovn', kind: 'typo', grade: (p) => is(p, 'Dutch Oven') ? 3 : 0 },
  { query: 'gravle bike', kind: 'typo', grade: (p) => is(p, 'Gravel Bike') ? 3 : 0 },
  { query: 'sunscren spf 50', kind: 'typo', grade: (p) => is(p, 'Sunscreen') ? (tag(p, 'spf 50') ? 3 : 1) : 0 },
  { query: 'mechanicl keyboard', kind: 'typo', grade: (p) => is(p, 'Mechanical Keyboard') ? 3 : 0 },
  { query: 'kettlebel', kind: 'typo', grade: (p) => is(p, 'Kettlebell') ? 3 : 0 },
  { query: 'yoga matt non slip', kind: 'typo', grade: (p) => is(p, 'Yoga Mat') ? (tag(p, 'non slip') ? 3 : 2) : 0 },
  { query: 'boomcraft bluetoth speakr', kind: 'typo', grade: brandType('Boomcraft', 'Bluetooth Speaker') },
  { query: 'air fryr dual basket', kind: 'typo', grade: (p) => is(p, 'Air Fryer') ? (tag(p, 'dual basket') ? 3 : 1) : 0 },

  // paraphrase: natural descriptions sharing few words with the titles
  { query: 'boots that keep my feet dry on muddy trails', kind: 'paraphrase', grade: (p) => !tag(p, 'waterproof') ? 0 : is(p, 'Hiking Boot') ? 3 : is(p, 'Mountaineering Boot') ? 1 : 0 },
  { query: 'electric gadget that grinds coffee beans at home', kind: 'paraphrase', grade: (p) => is(p, 'Burr Coffee Grinder') ? 3 : 0 },
  { query: 'small hand mill for coffee I can take camping', kind: 'paraphrase', grade: (p) => is(p, 'Manual Coffee Grinder') ? 3 : 0 },
  { query: 'coffee machine with a jug that keeps the pot hot for hours', kind: 'paraphrase', grade: (p) => is(p, 'Drip Coffee Maker') ? (tag(p, 'thermal carafe') ? 3 : 1) : 0 },
  { query: 'block out engine noise on long flights', kind: 'paraphrase', grade: (p) => !tag(p, 'noise cancelling') ? 0 : is(p, 'Over-Ear Headphones') ? 3 : is(p, 'Wireless Earbuds') ? 2 : 0 },
  { query: 'long warm coat with a hood for bitter winter commutes', kind: 'paraphrase', grade: (p) => is(p, 'Insulated Parka') ? (tag(p, 'hooded') ? 3 : 2) : 0 },
  { query: 'rain shell that squashes down small in a bag', kind: 'paraphrase', grade: (p) => is(p, 'Rain Jacket') ? (tag(p, 'packable') ? 3 : 0) : 0 },
  { query: 'chair that helps with back pain when working from home', kind: 'paraphrase', grade: (p) => is(p, 'Office Chair') ? (tag(p, 'ergonomic') ? 3 : 2) : 0 },
  { query: 'desk I can raise to work standing up', kind: 'paraphrase', grade: (p) => is(p, 'Standing Desk') ? 3 : 0 },
  { query: 'toy that teaches kids to code', kind: 'paraphrase', grade: (p) => is(p, 'Coding Robot Kit') ? 3 : is(p, 'Building Blocks Set') && tag(p, 'stem') ? 1 : 0 },
  { query: 'present for a kid who is obsessed with dinosaurs', kind: 'paraphrase', grade: (p) => is(p, 'Dinosaur Figure Set') ? 3 : is(p, 'Plush Toy') && title(p, /Dinosaur/) ? 2 : 0 },
  { query: 'light I can strap to my head for night hikes', kind: 'paraphrase', grade: (p) => is(p, 'Headlamp') ? 3 : 0 },
  { query: 'crispy chips without deep frying', kind: 'paraphrase', grade: (p) => is(p, 'Air Fryer') ? 3 : 0 },
  { query: 'pan that eggs will not stick to', kind: 'paraphrase', grade: (p) => !tag(p, 'nonstick') ? 0 : is(p, 'Frying Pan') ? 3 : is(p, 'Cookware Set') ? 2 : 0 },
  { query: 'watch I can wear scuba diving', kind: 'paraphrase', grade: (p) => is(p, 'Dive Watch') ? 3 : 0 },
  { query: 'simple band that counts my steps and tracks my sleep', kind: 'paraphrase', grade: (p) => is(p, 'Fitness Tracker') ? 3 : 0 },
  { query: 'gentle face cream for dry skin that reacts to perfume', kind: 'paraphrase', grade: (p) => !is(p, 'Moisturizer') ? 0 : tag(p, 'fragrance free') ? 3 : tag(p, 'sensitive skin') ? 2 : 1 },
  { query: 'something to play music by the pool that will not mind a splash', kind: 'paraphrase', grade: (p) => is(p, 'Bluetooth Speaker') && tag(p, 'waterproof') ? 3 : 0 },
  { query: 'vest that carries water on trail runs', kind: 'paraphrase', grade: (p) => is(p, 'Hydration Pack') ? 3 : is(p, 'Daypack') && tag(p, 'hydration compatible') ? 1 : 0 },
  { query: 'get to work without arriving sweaty', kind: 'paraphrase', grade: (p) => is(p, 'Electric Bike') ? 3 : 0 },
  { query: 'keep my phone alive on a long hike', kind: 'paraphrase', grade: (p) => is(p, 'Power Bank') ? 3 : 0 },
  { query: 'stay warm sleeping in a tent when it is freezing', kind: 'paraphrase', grade: (p) => is(p, 'Sleeping Bag') && tag(p, 'winter') ? 3 : is(p, 'Sleeping Pad') && tag(p, 'insulated') ? 2 : 0 },
  { query: 'heat water to exactly the right temperature for green tea', kind: 'paraphrase', grade: (p) => is(p, 'Gooseneck Kettle') ? (tag(p, 'temperature control') ? 3 : 1) : 0 },
  { query: 'bedding for people who overheat at night', kind: 'paraphrase', grade: (p) => tag(p, 'cooling') && is(p, 'Duvet', 'Bed Sheet Set') ? 3 : 0 },
  { query: 'couch that can survive kids and a dog', kind: 'paraphrase', grade: (p) => is(p, 'Sofa') ? (tag(p, 'pet friendly') ? 3 : tag(p, 'machine washable') ? 2 : 0) : 0 },
  { query: 'read novels by the pool without worrying about splashes', kind: 'paraphrase', grade: (p) => is(p, 'E-Reader') ? (tag(p, 'waterproof') ? 3 : 1) : 0 },
  { query: 'top for road cycling that wicks sweat', kind: 'paraphrase', grade: (p) => is(p, 'Cycling Jersey') ? (tag(p, 'breathable') ? 3 : 2) : 0 },

  // filtered (Meilisearch filter syntax)
  { query: 'running shoes', kind: 'filtered', filters: 'price < 100 AND in_stock = true', grade: (p) => is(p, 'Road Running Shoe', 'Trail Running Shoe', 'Stability Running Shoe', 'Racing Shoe') ? 3 : is(p, 'Track Spike') ? 1 : 0 },
  { query: 'wireless earbuds', kind: 'filtered', filters: 'price < 80', grade: (p) => is(p, 'Wireless Earbuds') ? 3 : is(p, 'Open-Ear Sport Headphones') ? 1 : 0 },
  { query: 'hiking boots', kind: 'filtered', filters: 'in_stock = true AND rating >= 4.5', grade: (p) => is(p, 'Hiking Boot') ? 3 : is(p, 'Mountaineering Boot', 'Winter Boot') ? 1 : 0 },
  { query: 'rain jacket', kind: 'filtered', filters: 'price <= 150', grade: (p) => is(p, 'Rain Jacket') ? 3 : 0 },
  { query: 'espresso machine', kind: 'filtered', filters: 'price < 500 AND in_stock = true', grade: (p) => is(p, 'Espresso Machine') ? 3 : 0 },
  { query: 'tent', kind: 'filtered', filters: 'category = "Tents & Camping" AND price < 300', grade: (p) => is(p, 'Backpacking Tent', 'Family Camping Tent') ? 3 : 0 },
  { query: 'laptop', kind: 'filtered', filters: 'price < 700 AND in_stock = true', grade: (p) => is(p, 'Ultrabook', 'Gaming Laptop', '2-in-1 Laptop', 'Chromebook') ? 3 : 0 },
  { query: 'smartwatch', kind: 'filtered', filters: 'rating >= 4.6', grade: (p) => is(p, 'Smartwatch') ? 3 : is(p, 'GPS Running Watch') ? 2 : is(p, 'Fitness Tracker') ? 1 : 0 },
  { query: 'blender', kind: 'filtered', filters: 'in_stock = true AND price < 150', grade: (p) => is(p, 'Blender') ? 3 : 0 },
  { query: 'office chair', kind: 'filtered', filters: 'price < 300', grade: (p) => is(p, 'Office Chair') ? 3 : 0 },
  { query: 'shoes for runners whose feet roll inward', kind: 'filtered', filters: 'price < 130 AND in_stock = true', grade: (p) => is(p, 'Stability Running Shoe') ? 3 : 0 },
  { query: 'headphones', kind: 'filtered', filters: 'brand = Veltone', grade: (p) => is(p, 'Over-Ear Headphones', 'Studio Headphones') ? 3 : is(p, 'Open-Ear Sport Headphones') ? 2 : is(p, 'Wireless Earbuds') ? 1 : 0 },
  { query: 'organic coffee beans', kind: 'filtered', filters: 'price < 20', grade: (p) => is(p, 'Whole Bean Coffee') ? (tag(p, 'organic') ? 3 : 1) : 0 },
  { query: 'waterproof jacket', kind: 'filtered', filters: 'color IN [Red, Yellow, Orange]', grade: (p) => is(p, 'Rain Jacket', 'Insulated Parka') && tag(p, 'waterproof') ? 3 : is(p, 'Rain Jacket') ? 2 : 0 },
  { query: 'sleeping pad', kind: 'filtered', filters: 'price 50 TO 150 AND rating >= 4', grade: (p) => is(p, 'Sleeping Pad') ? 3 : 0 }
]

/**
 * Shopper messages for the chat assistant. `expected` holds the products a good answer cites: the
 * products that meet every stated constraint, best first (grade, then in stock, then rating; or
 * cheapest first where the shopper asks for the cheapest), at most five.
 */
interface AssistantDef {
  message: string
  classification: 'question' | 'request'
  grade: Rule
  where?: (p: Product) => boolean
  order?: 'best' | 'cheapest'
  max?: number
}

const under = (limit: number) => (p: Product) => p.price < limit
const inStock = (p: Product) => p.in_stock
const women = (p: Product) => tag(p, 'women')
const men = (p: Product) => tag(p, 'men')
const only = (...types: string[]): Rule => (p) => is(p, ...types) ? 3 : 0
const withTag = (type: string, ...tags: string[]): Rule => (p) => is(p, type) && tags.every((t) => tag(p, t)) ? 3 : 0

const assistantDefs: AssistantDef[] = [
  // with price, brand, category or stock constraints
  { message: 'do you have waterproof hiking boots under $150?', classification: 'question', grade: withTag('Hiking Boot', 'waterproof'), where: under(150) },
  { message: 'Show me noise-cancelling over-ear headphones under $300.', classification: 'request', grade: withTag('Over-Ear Headphones', 'noise cancelling'), where: under(300) },
  { message: 'I need a Chromebook for my son\'s homework, nothing over $250.', classification: 'request', grade: only('Chromebook'), where: (p) => p.price <= 250 },
  { message: 'Is the Kettleby espresso machine with the built-in grinder in stock?', classification: 'question', grade: withTag('Espresso Machine', 'built-in grinder'), where: (p) => p.brand === 'Kettleby' },
  { message: 'recommend a carbon-plated racing shoe from Velora', classification: 'request', grade: withTag('Racing Shoe', 'carbon plate'), where: (p) => p.brand === 'Velora' },
  { message: 'Are there any Pinecrest tents for two people?', classification: 'question', grade: withTag('Backpacking Tent', '2 person'), where: (p) => p.brand === 'Pinecrest' },
  { message: 'find me a sleeping bag rated to 0°F for less than $250', classification: 'request', grade: withTag('Sleeping Bag', 'winter'), where: under(250) },
  { message: 'Do you sell dual-basket air fryers for less than $200?', classification: 'question', grade: withTag('Air Fryer', 'dual basket'), where: under(200) },
  { message: "I'm looking for a waterproof Boomcraft speaker.", classification: 'request', grade: withTag('Bluetooth Speaker', 'waterproof'), where: (p) => p.brand === 'Boomcraft' },
  { message: 'Show me rain jackets under $100 that are in stock', classification: 'request', grade: only('Rain Jacket'), where: (p) => p.price < 100 && p.in_stock },
  { message: 'Any Zentel tablets under $400?', classification: 'question', grade: only('Tablet'), where: (p) => p.brand === 'Zentel' && p.price < 400 },
  { message: 'do you have a mineral sunscreen with SPF 50 for under $25?', classification: 'question', grade: withTag('Sunscreen', 'mineral', 'spf 50'), where: under(25) },
  { message: 'Looking for a waterproof e-reader from Lumetra', classification: 'request', grade: withTag('E-Reader', 'waterproof'), where: (p) => p.brand === 'Lumetra' },
  { message: 'Show me dive watches with a sapphire crystal under $400.', classification: 'request', grade: withTag('Dive Watch', 'sapphire crystal'), where: under(400) },
  { message: 'Which Corvane smartwatches can I order right now?', classification: 'question', grade: only('Smartwatch'), where: (p) => p.brand === 'Corvane' && p.in_stock },
  { message: "I'd like a standing desk for under $300", classification: 'request', grade: only('Standing Desk'), where: under(300) },
  { message: 'find an ergonomic office chair under $500', classification: 'request', grade: withTag('Office Chair', 'ergonomic'), where: under(500) },
  { message: 'Do you have 24 kg kettlebells?', classification: 'question', grade: (p) => is(p, 'Kettlebell') && title(p, /24 kg/) ? 3 : 0 },
  { message: "Looking for a women's rain jacket in red", classification: 'request', grade: only('Rain Jacket'), where: (p) => women(p) && p.color === 'Red' },
  { message: 'Do you carry ultrabooks with 32GB RAM and a 1TB SSD for under $1,500?', classification: 'question', grade: withTag('Ultrabook', '32gb ram', '1tb'), where: under(1500) },
  { message: 'I need a gaming laptop with 32GB of RAM that is in stock', classification: 'request', grade: withTag('Gaming Laptop', '32gb ram'), where: inStock },
  { message: 'recommend a Hearthwell knife set', classification: 'request', grade: only('Knife Block Set'), where: (p) => p.brand === 'Hearthwell' },
  { message: "Show me men's waterproof trail running shoes", classification: 'request', grade: withTag('Trail Running Shoe', 'waterproof'), where: men },
  { message: 'do you have a folding electric bike under $2,000?', classification: 'question', grade: withTag('Electric Bike', 'folding'), where: under(2000) },
  { message: 'I want a cooling duvet that is in stock', classification: 'request', grade: withTag('Duvet', 'cooling'), where: inStock },
  { message: 'find a natural rubber yoga mat under $50', classification: 'request', grade: withTag('Yoga Mat', 'eco'), where: under(50) },
  { message: 'Are there noise cancelling earbuds under $300?', classification: 'question', grade: withTag('Wireless Earbuds', 'noise cancelling'), where: under(300) },
  { message: "I'm after a coding robot for my 9 year old, less than $60", classification: 'request', grade: only('Coding Robot Kit'), where: under(60) },
  { message: 'Show me Stormcrest rain jackets', classification: 'request', grade: only('Rain Jacket'), where: (p) => p.brand === 'Stormcrest' },
  { message: "What's the cheapest burr coffee grinder you have?", classification: 'question', grade: only('Burr Coffee Grinder'), order: 'cheapest', max: 3 },
  { message: "What's your best-rated espresso machine under $500?", classification: 'question', grade: only('Espresso Machine'), where: under(500), max: 3 },
  { message: 'do you have any organic dark roast coffee beans?', classification: 'question', grade: withTag('Whole Bean Coffee', 'organic', 'dark roast') },
  { message: 'I need a 4-season tent for winter backpacking under $600', classification: 'request', grade: withTag('Backpacking Tent', '4 season'), where: under(600) },
  { message: 'show me Veltone over-ear headphones under $200', classification: 'request', grade: only('Over-Ear Headphones'), where: (p) => p.brand === 'Veltone' && p.price < 200 },

  // needs without explicit constraints
  { message: 'I need boots that keep my feet dry on muddy hikes', classification: 'request', grade: withTag('Hiking Boot', 'waterproof') },
  { message: "what's good for grinding coffee beans at home?", classification: 'question', grade: only('Burr Coffee Grinder') },
  { message: 'Recommend something to block out engine noise on a long flight', classification: 'request', grade: withTag('Over-Ear Headphones', 'noise cancelling') },
  { message: 'my back hurts after sitting at my desk all day, what chair should I get?', classification: 'question', grade: withTag('Office Chair', 'ergonomic') },
  { message: 'Find me a birthday gift for a 6 year old who loves dinosaurs', classification: 'request', grade: only('Dinosaur Figure Set') },
  { message: 'I want to make crispy fries without a deep fryer', classification: 'request', grade: only('Air Fryer') },
  { message: 'what can I read on at the beach without worrying about water?', classification: 'question', grade: withTag('E-Reader', 'waterproof') },
  { message: "What's a good speaker for pool parties?", classification: 'question', grade: withTag('Bluetooth Speaker', 'waterproof') },
  { message: 'I need a head torch for hiking in the dark', classification: 'request', grade: only('Headlamp') },
  { message: 'something to keep my phone charged on a camping trip', classification: 'request', grade: only('Power Bank') },
  { message: 'how can I keep a pot of coffee hot for hours without it burning?', classification: 'question', grade: withTag('Drip Coffee Maker', 'thermal carafe') },
  { message: 'suggest a sofa that is easy to clean with a dog in the house', classification: 'request', grade: withTag('Sofa', 'pet friendly') },
  { message: 'which frying pan is best so my eggs do not stick?', classification: 'question', grade: withTag('Frying Pan', 'nonstick') },
  { message: 'looking for a warm hooded parka for winter commuting', classification: 'request', grade: withTag('Insulated Parka', 'hooded') },
  { message: 'I sweat a lot on the bike, any cycling jersey that breathes well?', classification: 'question', grade: withTag('Cycling Jersey', 'breathable') },
  { message: 'I overpronate, which running shoes should I look at?', classification: 'question', grade: only('Stability Running Shoe') },
  { message: 'what watch can I take scuba diving?', classification: 'question', grade: only('Dive Watch') },
  { message: 'do you have a fitness band that tracks sleep?', classification: 'question', grade: withTag('Fitness Tracker', 'sleep tracking') },
  { message: "I'm a hot sleeper, what bedding would help?", classification: 'question', grade: (p) => is(p, 'Duvet', 'Bed Sheet Set') && tag(p, 'cooling') ? 3 : 0 },
  { message: 'recommend a fragrance-free moisturizer for sensitive skin', classification: 'request', grade: withTag('Moisturizer', 'fragrance free') },
  { message: 'Is there a kettle that can hold the water at the right temperature for green tea?', classification: 'question', grade: withTag('Gooseneck Kettle', 'temperature control') },
  { message: "what's a good first automatic watch for everyday wear?", classification: 'question', grade: withTag('Field Watch', 'automatic') },
  { message: 'I need a sleeping bag warm enough for winter camping', classification: 'request', grade: withTag('Sleeping Bag', 'winter') },
  { message: 'Show me ultralight backpacking tents', classification: 'request', grade: withTag('Backpacking Tent', 'ultralight') },
  { message: 'I need a helmet for commuting by bike', classification: 'request', grade: only('Bike Helmet') },
  { message: "find me a bike lock that bolt cutters can't get through", classification: 'request', grade: withTag('Bike Lock', 'high security') },
  { message: "What's a good board game for family night?", classification: 'question', grade: withTag('Board Game', 'family') },
  { message: 'I need a blender strong enough for frozen fruit smoothies', classification: 'request', grade: withTag('Blender', 'powerful') },
  { message: 'do you have something to roll out tight calves after runs?', classification: 'question', grade: only('Foam Roller') },
  { message: 'a backpack for work that protects my laptop in the rain', classification: 'request', grade: withTag('Laptop Backpack', 'water resistant') },
  { message: "What's a good carry-on backpack for one-bag travel?", classification: 'question', grade: only('Carry-On Travel Backpack') },
  { message: 'I want an espresso machine that can steam milk for flat whites', classification: 'request', grade: withTag('Espresso Machine', 'milk frother') },
  { message: 'Which e-bike is best for carrying kids and groceries?', classification: 'question', grade: withTag('Electric Bike', 'cargo') },
  { message: 'Can you suggest a serum that helps with dark spots?', classification: 'request', grade: withTag('Face Serum', 'vitamin c') }
]

function expectedOf (def: AssistantDef): string[] {
  const matches = catalog.filter((p) => def.grade(p) > 0 && (def.where?.(p) ?? true))
  const ranked = def.order === 'cheapest'
    ? matches.sort((a, b) => a.price - b.price || a.id.localeCompare(b.id))
    : matches.sort((a, b) => def.grade(b) - def.grade(a) || Number(b.in_stock) - Number(a.in_stock) || b.rating - a.rating || a.id.localeCompare(b.id))
  return ranked.slice(0, def.max ?? 5).map((p) => p.id)
}

/** Every match, in catalog order; only the best `max` when the message asks for a superlative ("the cheapest"). */
function acceptableOf (def: AssistantDef): string[] {
  if (def.max !== undefined) return expectedOf(def)
  return catalog.filter((p) => def.grade(p) > 0 && (def.where?.(p) ?? true)).map((p) => p.id)
}

function judge (def: QueryDef): JudgedQuery {
  const passes = def.filters === undefined ? () => true : compileFilter(def.filters)
  const relevant: Record<string, 1 | 2 | 3> = {}
  for (const p of catalog) {
    const g = def.grade(p)
    if (g > 0 && passes(p as unknown as Record<string, unknown>)) relevant[p.id] = g as 1 | 2 | 3
  }
  return { query: def.query, kind: def.kind, ...(def.filters === undefined ? {} : { filters: def.filters }), relevant }
}

const byId = new Map(catalog.map((p) => [p.id, p]))

function show (p: Product): string {
  return `${p.id} | ${p.title} | $${p.price} ${p.in_stock ? 'in' : 'OUT'} ★${p.rating} ${p.color ?? ''}`
}

const judged = queries.map(judge)
let problems = 0
for (const q of judged) {
  const ids = Object.keys(q.relevant)
  const flag = ids.length < 1 || ids.length > 15 ? '  <-- COUNT' : ''
  if (flag !== '') problems++
  console.log(`\n[${q.kind}] ${q.query}${q.filters === undefined ? '' : `  {${q.filters}}`}: ${ids.length}${flag}`)
  for (const id of ids) console.log(`  ${q.relevant[id] ?? 0} ${show(byId.get(id) as Product)}`)
}
const kinds = judged.reduce<Record<string, number>>((acc, q) => ({ ...acc, [q.kind]: (acc[q.kind] ?? 0) + 1 }), {})
console.log(`\n${judged.length} queries`, kinds, problems === 0 ? 'all counts in 1..15' : `${problems} queries out of 1..15`)

const assistant: AssistantCase[] = assistantDefs.map((d) => ({ message: d.message, expected: expectedOf(d), acceptable: acceptableOf(d), classification: d.classification }))
for (const [i, c] of assistant.entries()) {
  const all = catalog.filter((p) => assistantDefs[i]?.grade(p) !== 0 && (assistantDefs[i]?.where?.(p) ?? true)).length
  const flag = c.expected.length === 0 ? '  <-- NONE' : ''
  if (flag !== '') problems++
  console.log(`\n[${c.classification}] ${c.message} (${all} match)${flag}`)
  for (const id of c.expected) console.log(`  ${show(byId.get(id) as Product)}`)
}
console.log(`\n${assistant.length} assistant messages`)

if (process.argv.includes('--write') && problems === 0) {
  writeFileSync(here('./relevance.json'), '[\n' + judged.map((q) => JSON.stringify(q)).join(',\n') + '\n]\n')
  writeFileSync(here('./assistant-set.json'), '[\n' + assistant.map((c) => JSON.stringify(c)).join(',\n') + '\n]\n')
  console.log('wrote relevance.json and assistant-set.json')
}
