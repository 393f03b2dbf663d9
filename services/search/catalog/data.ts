/**
 * Vocabulary of the synthetic shop: categories, their product types, invented brands, model names,
 * features with paraphrased description clauses, materials, colours and sizes. Every brand and model
 * name is made up; any resemblance to a real trademark is unintended.
 *
 * Description clauses are independent clauses starting in lower case (the generator capitalises
 * them), written to say what a feature does rather than repeat its title word, so that semantic
 * search has paraphrases to find.
 */

export interface FeatureDef {
  /** Word(s) that may appear in the title, e.g. "Waterproof"; description-only when absent. */
  t?: string
  /** Description clauses, one is picked. */
  p: readonly string[]
  tags: readonly string[]
  /** Price factor, 1 when absent. */
  f?: number
  /** Features that cannot come with this one (checked both ways). */
  excludes?: readonly string[]
}

export interface SpecOption {
  t: string
  p?: string
  tags?: readonly string[]
  f?: number
}

/** A spec picked per product, shown before the type name ("2-Person") or after it in parentheses ("(16GB RAM, 512GB SSD)"). */
export interface SpecGroup {
  at: 'before' | 'after'
  options: readonly SpecOption[]
}

export type SizeKind = 'shoe' | 'apparel' | 'bike' | 'helmet' | 'bedding' | 'rug' | 'sleeping-bag' | 'torso' | 'mat'

export interface TypeDef {
  name: string
  /** Nouns used in descriptions instead of the type name. */
  syn: readonly string[]
  price: readonly [number, number]
  /** Keys into the category's features; a key listed twice is twice as likely. */
  features: readonly string[]
  /** Noun phrases that fit "made for …". */
  uses: readonly string[]
  tags: readonly string[]
  materials?: readonly string[]
  colors?: readonly string[]
  sizes?: SizeKind
  /** Men's / Women's variants. */
  audience?: boolean
  spec?: readonly SpecGroup[]
  models?: readonly string[]
  suffixes?: readonly string[]
  adjectives?: readonly string[]
  /** Relative frequency within the category, 1 when absent. */
  weight?: number
  /** Only these brands of the category make this type. */
  brands?: readonly string[]
}

export interface CategoryDef {
  name: string
  weight: number
  tag: string
  /** Brand name and price tier (about 0.8 budget … 1.3 premium). */
  brands: ReadonlyArray<readonly [string, number]>
  models: readonly string[]
  suffixes: readonly string[]
  adjectives: readonly string[]
  features: Readonly<Record<string, FeatureDef>>
  types: readonly TypeDef[]
}

const EARTH = ['Brown', 'Tan', 'Olive', 'Black', 'Grey', 'Charcoal', 'Sand', 'Navy']
const BRIGHT = ['Red', 'Orange', 'Blue', 'Green', 'Yellow', 'Black', 'Navy', 'Teal', 'Olive', 'Grey']
const SPORTY = ['Black', 'White', 'Grey', 'Blue', 'Red', 'Orange', 'Pink', 'Teal', 'Yellow', 'Purple', 'Navy']
const GADGET = ['Black', 'White', 'Silver', 'Grey', 'Navy', 'Blue', 'Green', 'Rose Gold']
const METAL = ['Silver', 'Graphite', 'Black', 'Blue', 'Gold']
const KITCHEN = ['Black', 'Red', 'Silver', 'White', 'Blue', 'Green', 'Cream', 'Copper']
const FABRIC = ['Grey', 'Beige', 'Navy', 'Green', 'Charcoal', 'White', 'Blue', 'Terracotta', 'Cream']
const WOOD = ['Natural Oak', 'Walnut', 'White', 'Black']
const BIKE = ['Black', 'Red', 'Blue', 'Green', 'Grey', 'White', 'Orange', 'Teal']
const WATCH = ['Black', 'Silver', 'Gold', 'Rose Gold', 'Blue', 'Green']
const TOY = ['Red', 'Blue', 'Green', 'Yellow', 'Purple', 'Orange', 'Pink']

const OUTDOOR_MODELS = ['Ridge', 'Summit', 'Cascade', 'Alpine', 'Talus', 'Scree', 'Granite', 'Boulder', 'Switchback', 'Timberline', 'Traverse', 'Kestrel', 'Ptarmigan', 'Moraine', 'Cirque', 'Basalt', 'Aspen', 'Juniper', 'Sierra', 'Tundra', 'Glacier', 'Canyon', 'Mesa', 'Arete', 'Couloir', 'Fellside', 'Bracken', 'Highland']
const TECH_MODELS = ['Nova', 'Pulse', 'Aero', 'Zen', 'Flux', 'Orbit', 'Vector', 'Prism', 'Arc', 'Ion', 'Lumen', 'Vertex', 'Helix', 'Spark', 'Volt', 'Tempo', 'Quill', 'Sable', 'Onyx', 'Cobalt', 'Vale', 'Drift']

const outdoorFootwear: CategoryDef = {
  name: 'Hiking Footwear',
  weight: 1.2,
  tag: 'hiking',
  brands: [['Trailmark', 1.1], ['Cairnfield', 1.2], ['Stonefell', 0.95], ['Northvale', 1.05], ['Hollowtree', 0.85]],
  models: OUTDOOR_MODELS,
  suffixes: ['Mid', 'GTX', 'II', 'Pro', 'Trek', 'XT'],
  adjectives: ['rugged', 'supportive', 'durable', 'comfortable', 'sure-footed', 'versatile'],
  features: {
    waterproof: { t: 'Waterproof', p: ['a breathable waterproof membrane keeps feet dry through puddles and stream crossings', 'sealed seams and a waterproof liner keep rain and mud out', 'a watertight liner means soggy, boggy ground never soaks your socks'], tags: ['waterproof'], f: 1.15 },
    grip: { t: 'All-Terrain', p: ['deep multidirectional lugs bite into loose rock and mud', 'a sticky rubber outsole holds firm on wet slabs and scree', 'the aggressive tread keeps its footing on slippery descents'], tags: ['grip', 'rugged'], f: 1.05 },
    ankle: { p: ['a padded high collar supports your ankles under a heavy pack', 'a stiff heel counter and cushioned collar keep ankles stable on uneven ground'], tags: ['ankle support'] },
    lightweight: { t: 'Lightweight', p: ['it weighs so little that long days on the trail do not wear you out', 'a featherweight build saves energy mile after mile'], tags: ['lightweight'], f: 1.05 },
    wide: { t: 'Wide Fit', p: ['a roomy toe box and wide last give broad feet extra space', 'the generous fit leaves room for wide feet and thick socks'], tags: ['wide fit'] },
    vegan: { t: 'Vegan', p: ['no animal-derived materials are used anywhere in the build'], tags: ['vegan'] },
    insulated: { t: 'Insulated', p: ['synthetic insulation keeps toes warm in freezing temperatures', 'a cosy insulated lining holds in warmth on snowy walks'], tags: ['insulated', 'winter'], f: 1.15 },
    breathable: { t: 'Breathable', p: ['an airy mesh upper lets sweat escape on hot summer hikes', 'open mesh panels keep feet cool when the sun is out'], tags: ['breathable'] },
    quickdry: { t: 'Quick-Dry', p: ['straps and footbed shed water and dry within minutes', 'it drains and dries fast after wading through rivers'], tags: ['quick dry'] }
  },
  types: [
    { name: 'Hiking Boot', syn: ['hiking boot', 'trekking boot', 'trail boot', 'walking boot'], price: [89, 249], features: ['waterproof', 'waterproof', 'grip', 'ankle', 'lightweight', 'wide', 'vegan', 'insulated'], uses: ['day hikes on rocky trails', 'multi-day treks with a loaded pack', 'muddy woodland paths', 'hill walking in changeable weather'], tags: ['boots', 'hiking boots'], materials: ['full-grain leather', 'nubuck leather with a cushioned EVA midsole', 'suede and abrasion-resistant mesh', 'a synthetic upper and rubber toe cap'], colors: EARTH, sizes: 'shoe', audience: true, weight: 2 },
    { name: 'Hiking Shoe', syn: ['hiking shoe', 'low-cut trail shoe', 'trail walker', 'walking shoe'], price: [69, 169], features: ['waterproof', 'grip', 'lightweight', 'breathable', 'wide', 'vegan'], uses: ['fast day hikes', 'well-marked trails and gravel paths', 'travel and light trekking', 'weekend rambles in the countryside'], tags: ['shoes', 'hiking shoes'], materials: ['suede and mesh', 'a recycled synthetic upper', 'nubuck leather'], colors: EARTH, sizes: 'shoe', audience: true, suffixes: ['Low', 'GTX', 'II', 'Lite', 'Trek'], weight: 1.5 },
    { name: 'Approach Shoe', syn: ['approach shoe', 'scrambling shoe', 'rock-ready hiker'], price: [99, 189], features: ['grip', 'grip', 'lightweight', 'vegan', 'waterproof'], uses: ['scrambles and rocky approaches to the crag', 'via ferrata routes', 'exposed ridge scrambles'], tags: ['shoes', 'climbing', 'approach shoes'], materials: ['suede with a rubber rand', 'synthetic leather with a climbing-zone toe'], colors: EARTH, sizes: 'shoe', audience: true, suffixes: ['Pro', 'II', 'Low', 'SR'] },
    { name: 'Hiking Sandal', syn: ['hiking sandal', 'trail sandal', 'outdoor sandal', 'sport sandal'], price: [39, 119], features: ['grip', 'lightweight', 'vegan', 'quickdry', 'quickdry'], uses: ['river crossings and canyon hikes', 'summer trails and beach walks', 'camp and travel days'], tags: ['sandals', 'summer'], materials: ['webbing straps and a contoured rubber footbed', 'recycled polyester straps'], colors: BRIGHT, sizes: 'shoe', audience: true, suffixes: ['Sport', 'II', 'Trail', 'Lite'] },
    { name: 'Mountaineering Boot', syn: ['mountaineering boot', 'alpine boot', 'crampon-compatible boot'], price: [249, 549], features: ['waterproof', 'insulated', 'grip', 'ankle'], uses: ['glacier travel and high alpine routes', 'winter mountaineering', 'steep snow and mixed ground'], tags: ['boots', 'mountaineering', 'crampon compatible'], materials: ['a synthetic upper with an integrated gaiter', 'full-grain leather with a rubber rand'], colors: ['Black', 'Orange', 'Red', 'Grey', 'Yellow'], sizes: 'shoe', suffixes: ['GTX', 'Pro', 'Extreme', '8000'], adjectives: ['technical', 'stiff-soled', 'warm', 'rugged'], weight: 0.6 },
    { name: 'Winter Boot', syn: ['winter boot', 'snow boot', 'cold-weather boot'], price: [79, 219], features: ['waterproof', 'insulated', 'insulated', 'grip', 'wide'], uses: ['snowy sidewalks and winter walks', 'cold, slushy commutes', 'walking the dog on icy mornings'], tags: ['boots', 'winter', 'snow'], materials: ['waterproof leather with a faux-fur lining', 'a nylon upper and rubber shell'], colors: EARTH, sizes: 'shoe', audience: true, suffixes: ['Mid', 'Tall', 'II', 'Lace'], adjectives: ['warm', 'cosy', 'rugged', 'comfortable'] }
  ]
}

const running: CategoryDef = {
  name: 'Running Shoes',
  weight: 1.1,
  tag: 'running',
  brands: [['Stridemark', 1.1], ['Paceworks', 1.0], ['Velora', 1.2], ['Kinetro', 0.9], ['Runvale', 0.85]],
  models: ['Tempo', 'Stride', 'Pace', 'Sprint', 'Velocity', 'Glide', 'Rush', 'Cadence', 'Zephyr', 'Strider', 'Apex', 'Rhythm', 'Kinetic', 'Flight', 'Dash', 'Comet', 'Breeze', 'Rally', 'Swift', 'Miler'],
  suffixes: ['2', '3', '4', '5', 'Pro', 'Elite', 'Lite', 'Max', 'GTX'],
  adjectives: ['responsive', 'cushioned', 'light', 'springy', 'comfortable', 'fast'],
  features: {
    cushioned: { t: 'Max-Cushion', p: ['a thick, bouncy midsole soaks up impact on long runs', 'plush foam softens every footstrike so your legs feel fresher'], tags: ['cushioned'], f: 1.08 },
    carbon: { t: 'Carbon-Plated', p: ['a full-length carbon plate snaps you forward for quicker toe-offs', 'a stiff carbon plate in the foam returns energy stride after stride'], tags: ['carbon plate', 'racing'], f: 1.3 },
    stability: { t: 'Stability', p: ['a firmer medial post guides feet that roll inward', 'guide rails keep overpronating feet on a straight path'], tags: ['stability', 'overpronation'], f: 1.05 },
    lightweight: { t: 'Lightweight', p: ['it weighs barely anything, so quick efforts feel effortless', 'a featherweight build keeps your turnover quick'], tags: ['lightweight'] },
    breathable: { t: 'Breathable', p: ['an engineered mesh upper keeps feet cool on hot summer runs'], tags: ['breathable'] },
    waterproof: { t: 'Waterproof', p: ['a waterproof membrane keeps feet dry through puddles and wet grass'], tags: ['waterproof'], f: 1.12 },
    grip: { p: ['sticky rubber lugs hold on mud, roots and wet rock', 'a lugged outsole keeps traction on loose, muddy descents'], tags: ['grip'] },
    wide: { t: 'Wide', p: ['a roomier forefoot suits wide feet'], tags: ['wide fit'] },
    reflective: { t: 'Reflective', p: ['reflective details keep you visible on dark early-morning runs'], tags: ['reflective'] },
    zerodrop: { t: 'Zero-Drop', p: ['a level heel-to-toe platform encourages a natural midfoot strike'], tags: ['zero drop'] }
  },
  types: [
    { name: 'Road Running Shoe', syn: ['running shoe', 'road shoe', 'daily trainer', 'runner'], price: [79, 179], features: ['cushioned', 'cushioned', 'lightweight', 'breathable', 'wide', 'reflective', 'zerodrop'], uses: ['daily training miles on pavement', 'marathon training', 'easy recovery jogs', 'park runs and city loops'], tags: ['road running', 'running shoes'], materials: ['engineered knit with a foam midsole', 'recycled mesh and a rubber outsole'], colors: SPORTY, sizes: 'shoe', audience: true, weight: 2 },
    { name: 'Trail Running Shoe', syn: ['trail runner', 'off-road running shoe', 'trail shoe'], price: [89, 189], features: ['grip', 'grip', 'waterproof', 'cushioned', 'lightweight', 'wide'], uses: ['muddy fell runs and technical singletrack', 'ultra-distance trail races', 'forest trails and rooty paths'], tags: ['trail running', 'running shoes'], materials: ['a rip-stop mesh upper with a rock plate', 'a durable synthetic upper with a toe bumper'], colors: SPORTY, sizes: 'shoe', audience: true, weight: 1.5 },
    { name: 'Racing Shoe', syn: ['race-day shoe', 'racer', 'super shoe'], price: [149, 279], features: ['carbon', 'carbon', 'carbon', 'lightweight', 'breathable'], uses: ['race day and fast tempo runs', 'chasing a marathon personal best', '5K and 10K races'], tags: ['racing', 'running shoes'], materials: ['a translucent monomesh upper over supercritical foam'], colors: SPORTY, sizes: 'shoe', audience: true, suffixes: ['Elite', 'Pro', 'RC', '2', '3'], adjectives: ['fast', 'propulsive', 'springy', 'feather-light'] },
    { name: 'Stability Running Shoe', syn: ['support shoe', 'stability trainer', 'running shoe'], price: [99, 179], features: ['stability', 'stability', 'cushioned', 'wide', 'reflective'], uses: ['runners who overpronate', 'everyday training with extra support', 'long, steady miles'], tags: ['stability', 'running shoes'], materials: ['engineered mesh with a firm medial post'], colors: SPORTY, sizes: 'shoe', audience: true, adjectives: ['supportive', 'stable', 'cushioned'] },
    { name: 'Track Spike', syn: ['track spike', 'sprint spike', 'racing spike'], price: [59, 139], features: ['lightweight', 'lightweight', 'breathable'], uses: ['sprints on the track', 'middle-distance races', 'cross-country meets'], tags: ['track', 'spikes'], materials: ['a minimal mesh upper with a rigid spike plate'], colors: SPORTY, sizes: 'shoe', suffixes: ['MD', 'SP', 'XC', '2'], adjectives: ['aggressive', 'light', 'fast'], weight: 0.5 }
  ]
}

const jackets: CategoryDef = {
  name: 'Jackets & Outerwear',
  weight: 1.2,
  tag: 'outerwear',
  brands: [['Northvale', 1.05], ['Harrowgate', 1.2], ['Stormcrest', 1.0], ['Aldermoor', 0.9], ['Skyloft', 1.15]],
  models: OUTDOOR_MODELS,
  suffixes: ['Pro', 'II', 'Lite', 'Hoody', '3L', 'Storm', 'Trail'],
  adjectives: ['versatile', 'packable', 'warm', 'technical', 'everyday', 'lightweight'],
  features: {
    waterproof: { t: 'Waterproof', p: ['a fully taped waterproof shell keeps you dry in driving rain', 'sealed seams and a storm hood shut out downpours', 'it keeps the rain out during all-day drizzle and sudden cloudbursts'], tags: ['waterproof'], f: 1.15 },
    breathable: { t: 'Breathable', p: ['a breathable membrane lets sweat vapour escape on steep climbs', 'pit zips dump heat when you work hard'], tags: ['breathable'] },
    packable: { t: 'Packable', p: ['it stuffs into its own pocket, so it takes up almost no room in a bag', 'it packs down to the size of a water bottle'], tags: ['packable'] },
    insulated: { t: 'Insulated', p: ['synthetic insulation stays warm even when damp', 'a layer of lofty insulation traps body heat on freezing days'], tags: ['insulated', 'warm'], f: 1.15 },
    hooded: { t: 'Hooded', p: ['an adjustable hood fits over a helmet or beanie'], tags: ['hooded'] },
    windproof: { t: 'Windproof', p: ['a tightly woven face fabric blocks biting wind on exposed ridges', 'it cuts the chill of gusty coastal winds'], tags: ['windproof'] },
    recycled: { t: 'Recycled', p: ['the face fabric is made from recycled plastic bottles', 'it is made with recycled nylon and a PFC-free water-repellent finish'], tags: ['recycled', 'sustainable'] },
    stretch: { t: 'Stretch', p: ['four-way stretch fabric moves with you when you reach and scramble'], tags: ['stretch'] }
  },
  types: [
    { name: 'Rain Jacket', syn: ['rain jacket', 'rain shell', 'waterproof shell', 'raincoat'], price: [69, 299], features: ['waterproof', 'waterproof', 'waterproof', 'breathable', 'packable', 'hooded', 'recycled'], uses: ['wet hikes and rainy commutes', 'hillwalking in stormy weather', 'city showers and travel'], tags: ['rain', 'jackets', 'shell'], materials: ['2.5-layer recycled nylon', '3-layer ripstop nylon'], colors: BRIGHT, sizes: 'apparel', audience: true, weight: 2 },
    { name: 'Down Jacket', syn: ['down jacket', 'puffer jacket', 'puffy', 'down coat'], price: [129, 399], features: ['packable', 'packable', 'hooded', 'recycled', 'windproof'], uses: ['cold winter days', 'chilly evenings at camp', 'ski trips and frosty city mornings'], tags: ['down', 'puffer', 'jackets', 'warm'], spec: [{ at: 'before', options: [{ t: '650-Fill', p: 'responsibly sourced 650-fill down gives plenty of warmth for the weight', tags: ['650 fill'], f: 0.9 }, { t: '800-Fill', p: 'high-loft 800-fill down delivers serious warmth at a tiny weight', tags: ['800 fill'], f: 1.15 }, { t: '', p: 'traceable goose down traps heat without bulk' }] }], materials: ['a ripstop nylon shell', 'a recycled polyester shell with a water-repellent finish'], colors: BRIGHT, sizes: 'apparel', audience: true, adjectives: ['warm', 'cosy', 'lightweight', 'packable'], weight: 1.5 },
    { name: 'Softshell Jacket', syn: ['softshell', 'softshell jacket', 'stretchy shell'], price: [79, 199], features: ['windproof', 'windproof', 'stretch', 'breathable', 'hooded', 'insulated'], uses: ['climbing and scrambling', 'breezy spring hikes', 'ski touring'], tags: ['softshell', 'jackets'], materials: ['a brushed-back stretch woven fabric'], colors: EARTH, sizes: 'apparel', audience: true },
    { name: 'Fleece Jacket', syn: ['fleece', 'fleece jacket', 'midlayer', 'fleece pullover'], price: [39, 129], features: ['recycled', 'recycled', 'stretch', 'hooded'], uses: ['layering under a shell', 'cool mornings around camp', 'everyday wear on chilly days'], tags: ['fleece', 'midlayer'], materials: ['soft grid fleece', 'recycled high-pile fleece', 'brushed microfleece'], colors: EARTH, sizes: 'apparel', audience: true, adjectives: ['cosy', 'soft', 'warm', 'versatile'], weight: 1.5 },
    { name: 'Insulated Parka', syn: ['parka', 'winter coat', 'insulated coat'], price: [179, 499], features: ['waterproof', 'waterproof', 'hooded', 'hooded', 'recycled', 'windproof'], uses: ['bitter winter commutes', 'sub-zero city days', 'standing around at cold sports matches'], tags: ['parka', 'winter', 'warm', 'coats'], materials: ['a waterproof shell and synthetic fill', 'a waxed cotton shell and down fill'], colors: EARTH, sizes: 'apparel', audience: true, adjectives: ['warm', 'long', 'weatherproof', 'cosy'] },
    { name: 'Windbreaker', syn: ['windbreaker', 'wind jacket', 'wind shell'], price: [49, 129], features: ['packable', 'packable', 'windproof', 'recycled', 'hooded'], uses: ['breezy runs and rides', 'blustery beach walks', 'fast-moving days in the hills'], tags: ['wind', 'jackets'], materials: ['featherweight ripstop nylon'], colors: BRIGHT, sizes: 'apparel', audience: true, adjectives: ['featherweight', 'packable', 'light'] },
    { name: 'Insulated Vest', syn: ['vest', 'gilet', 'body warmer'], price: [59, 179], features: ['packable', 'recycled', 'windproof'], uses: ['layering on cool days', 'brisk morning walks', 'keeping your core warm while your arms move freely'], tags: ['vest', 'insulated'], materials: ['quilted synthetic insulation', 'down baffles and a nylon shell'], colors: EARTH, sizes: 'apparel', audience: true, weight: 0.8 }
  ]
}

const bags: CategoryDef = {
  name: 'Backpacks & Bags',
  weight: 1.0,
  tag: 'bags',
  brands: [['Trailmark', 1.1], ['Haulwell', 1.0], ['Wanderkin', 0.95], ['Tidepack', 0.9], ['Ridgecarry', 1.2]],
  models: [...OUTDOOR_MODELS.slice(0, 14), 'Commuter', 'Transit', 'Metro', 'Nomad', 'Voyager', 'Roam', 'Atlas'],
  suffixes: ['Pro', 'II', 'Lite', 'Plus', 'XL', 'Travel'],
  adjectives: ['durable', 'comfortable', 'roomy', 'streamlined', 'versatile'],
  features: {
    waterproof: { t: 'Water-Resistant', p: ['a water-resistant coated fabric keeps contents dry in showers', 'water-repellent zips and fabric shrug off rain'], tags: ['water resistant'], f: 1.05 },
    laptop: { p: ['a padded sleeve holds up to a 16-inch laptop', 'a suspended, padded compartment protects your laptop'], tags: ['laptop sleeve'] },
    hydration: { p: ['it has a sleeve and port for a hydration reservoir', 'a hose port lets you sip from a water bladder on the move'], tags: ['hydration compatible'] },
    ventilated: { p: ['a ventilated mesh back panel keeps your back from getting sweaty', 'a suspended mesh back lets air flow on hot days'], tags: ['ventilated'] },
    lightweight: { t: 'Lightweight', p: ['it weighs next to nothing empty'], tags: ['lightweight'] },
    antitheft: { t: 'Anti-Theft', p: ['hidden zips and a lockable main compartment deter pickpockets'], tags: ['anti theft', 'travel'] },
    rolltop: { t: 'Roll-Top', p: ['a roll-top closure expands for extra gear and seals out weather'], tags: ['roll top'] },
    recycled: { t: 'Recycled', p: ['the fabric is woven from recycled plastic bottles'], tags: ['recycled', 'sustainable'] }
  },
  types: [
    { name: 'Daypack', syn: ['daypack', 'day bag', 'small hiking pack'], price: [39, 129], features: ['hydration', 'ventilated', 'waterproof', 'lightweight', 'recycled'], uses: ['day hikes', 'city days and light travel', 'carrying snacks, water and a spare layer'], tags: ['backpacks', 'hiking'], spec: [{ at: 'before', options: [{ t: '18L', f: 0.9 }, { t: '22L' }, { t: '25L' }, { t: '28L', f: 1.05 }, { t: '30L', f: 1.1 }] }], colors: BRIGHT, weight: 1.5 },
    { name: 'Hiking Backpack', syn: ['trekking pack', 'backpacking pack', 'rucksack', 'hiking pack'], price: [119, 329], features: ['hydration', 'ventilated', 'ventilated', 'waterproof', 'lightweight', 'rolltop'], uses: ['multi-day treks', 'overnight backpacking trips', 'hut-to-hut hikes'], tags: ['backpacks', 'hiking', 'backpacking'], spec: [{ at: 'before', options: [{ t: '35L', f: 0.85 }, { t: '45L' }, { t: '55L', f: 1.1 }, { t: '65L', f: 1.2 }] }], materials: ['ripstop nylon with an adjustable aluminium frame'], colors: BRIGHT, sizes: 'torso', weight: 1.3 },
    { name: 'Laptop Backpack', syn: ['laptop bag', 'work backpack', 'commuter backpack'], price: [49, 179], features: ['laptop', 'laptop', 'laptop', 'waterproof', 'antitheft', 'recycled'], uses: ['the daily commute', 'school and university', 'business trips'], tags: ['backpacks', 'laptop', 'work'], materials: ['ballistic nylon', 'recycled polyester canvas', 'waxed canvas with leather trim'], colors: ['Black', 'Grey', 'Navy', 'Olive', 'Charcoal', 'Tan'], weight: 1.5 },
    { name: 'Travel Duffel', syn: ['duffel bag', 'holdall', 'weekender', 'gear bag'], price: [59, 199], features: ['waterproof', 'waterproof', 'recycled', 'lightweight'], uses: ['weekend getaways', 'gym and sports kit', 'expedition gear hauling'], tags: ['duffel', 'travel'], spec: [{ at: 'before', options: [{ t: '40L', f: 0.85 }, { t: '60L' }, { t: '90L', f: 1.2 }] }], materials: ['a tough TPU-laminated fabric', 'heavy-duty canvas'], colors: BRIGHT },
    { name: 'Hydration Pack', syn: ['hydration pack', 'running vest', 'bike pack'], price: [49, 139], features: ['hydration', 'hydration', 'lightweight', 'ventilated'], uses: ['trail runs and mountain bike rides', 'long hot hikes', 'races and fast-packing'], tags: ['hydration', 'running', 'cycling'], spec: [{ at: 'before', options: [{ t: '5L', f: 0.85 }, { t: '10L' }, { t: '15L', f: 1.15 }] }], colors: BRIGHT, adjectives: ['lightweight', 'bounce-free', 'streamlined'] },
    { name: 'Sling Bag', syn: ['sling', 'crossbody bag', 'hip pack', 'bum bag'], price: [25, 79], features: ['waterproof', 'antitheft', 'recycled'], uses: ['travel days and festivals', 'keeping your phone and wallet close', 'city walks'], tags: ['sling', 'crossbody'], colors: ['Black', 'Grey', 'Navy', 'Olive', 'Tan', 'Pink'], weight: 0.8 },
    { name: 'Carry-On Travel Backpack', syn: ['travel pack', 'carry-on backpack', 'cabin bag'], price: [99, 249], features: ['laptop', 'antitheft', 'waterproof', 'recycled'], uses: ['one-bag travel', 'flights with cabin-size limits', 'long weekends abroad'], tags: ['backpacks', 'travel', 'carry-on'], spec: [{ at: 'before', options: [{ t: '35L' }, { t: '40L', f: 1.05 }, { t: '45L', f: 1.1 }] }], colors: ['Black', 'Grey', 'Navy', 'Olive'] }
  ]
}

const camping: CategoryDef = {
  name: 'Tents & Camping',
  weight: 1.1,
  tag: 'camping',
  brands: [['Pinecrest', 1.1], ['Campwright', 0.9], ['Emberline', 1.0], ['Northvale', 1.05], ['Starfall', 1.25]],
  models: OUTDOOR_MODELS,
  suffixes: ['UL', 'Plus', 'II', 'Lite', 'XL', 'Base'],
  adjectives: ['reliable', 'compact', 'lightweight', 'sturdy', 'roomy'],
  features: {
    ultralight: { t: 'Ultralight', p: ['it is light enough to carry for days without noticing', 'every gram has been trimmed for long-distance hikers'], tags: ['ultralight', 'lightweight'], f: 1.25 },
    freestanding: { t: 'Freestanding', p: ['it stands on its own, so you can pitch it on rock or sand', 'a freestanding pole frame pitches anywhere in minutes'], tags: ['freestanding'], f: 1.05 },
    waterproof: { t: 'Waterproof', p: ['a waterproof fly and bathtub floor keep you dry through overnight storms', 'seam-taped fabrics keep the rain out all night'], tags: ['waterproof'], f: 1.05 },
    weatherproof: { t: 'Weatherproof', p: ['an IPX4 housing shrugs off rain and splashes', 'it keeps shining through downpours'], tags: ['weatherproof', 'waterproof'] },
    dwr: { t: 'Water-Resistant', p: ['a water-resistant shell shrugs off tent condensation and damp mornings'], tags: ['water resistant'], f: 1.05 },
    fourseason: { t: '4-Season', p: ['it shrugs off snow loads and winter gales'], tags: ['4 season', 'winter'], f: 1.3 },
    easy: { t: 'Instant', p: ['pre-attached poles mean it goes up in about a minute'], tags: ['easy setup'] },
    rechargeable: { t: 'Rechargeable', p: ['a built-in battery tops up from any USB-C cable'], tags: ['rechargeable', 'usb-c'], f: 1.1 },
    insulated: { t: 'Insulated', p: ['an insulated core keeps the cold ground from stealing your warmth'], tags: ['insulated'], f: 1.1 },
    packable: { t: 'Packable', p: ['it packs down to the size of a water bottle'], tags: ['packable'] },
    lowprofile: { p: ['it folds flat to fit in the car boot'], tags: ['folding'] }
  },
  types: [
    { name: 'Backpacking Tent', syn: ['backpacking tent', 'lightweight shelter', 'trekking tent', 'hiking tent'], price: [149, 549], features: ['ultralight', 'ultralight', 'freestanding', 'waterproof', 'fourseason'], uses: ['backpacking trips', 'wild camping in the hills', 'thru-hikes'], tags: ['tents', 'backpacking'], spec: [{ at: 'before', options: [{ t: '1-Person', p: 'there is room for one sleeper and their gear', tags: ['1 person', 'solo'], f: 0.85 }, { t: '2-Person', p: 'two sleepers fit side by side with a vestibule each', tags: ['2 person'] }, { t: '3-Person', p: 'it sleeps three, or two with room to spread out', tags: ['3 person'], f: 1.2 }] }], colors: ['Green', 'Orange', 'Grey', 'Yellow', 'Olive', 'Red'], weight: 1.5 },
    { name: 'Family Camping Tent', syn: ['family tent', 'car camping tent', 'cabin tent', 'group tent'], price: [179, 699], features: ['waterproof', 'waterproof', 'easy', 'easy', 'freestanding'], uses: ['family camping weekends', 'festivals and campsites', 'car camping trips'], tags: ['tents', 'family'], adjectives: ['roomy', 'spacious', 'sturdy', 'weatherproof'], spec: [{ at: 'before', options: [{ t: '4-Person', tags: ['4 person'], f: 0.8 }, { t: '6-Person', tags: ['6 person'] }, { t: '8-Person', tags: ['8 person'], f: 1.25 }] }], colors: ['Green', 'Grey', 'Blue', 'Sand', 'Olive'] },
    { name: 'Sleeping Bag', syn: ['sleeping bag', 'mummy bag', 'sleeping sack'], price: [69, 399], features: ['ultralight', 'packable', 'packable', 'dwr'], uses: ['backpacking trips', 'nights under the stars', 'hut trips and camping weekends'], tags: ['sleeping bags', 'sleep'], spec: [{ at: 'before', options: [{ t: '40°F', p: 'it is rated for mild summer nights down to about 40°F', tags: ['summer'], f: 0.8 }, { t: '20°F', p: 'it keeps you warm down to around 20°F for three-season trips', tags: ['3 season'] }, { t: '0°F', p: 'it is rated down to 0°F for winter camping', tags: ['winter'], f: 1.35 }] }], materials: ['800-fill down', 'synthetic insulation that stays warm when damp', 'recycled synthetic fill'], colors: ['Red', 'Blue', 'Orange', 'Green', 'Grey', 'Yellow'], sizes: 'sleeping-bag', adjectives: ['warm', 'lofty', 'packable', 'cosy'] },
    { name: 'Sleeping Pad', syn: ['sleeping pad', 'sleeping mat', 'camping mattress', 'air mat'], price: [39, 199], features: ['insulated', 'insulated', 'ultralight', 'packable'], uses: ['sleeping comfortably on hard ground', 'backpacking trips', 'winter camping'], tags: ['sleeping pads', 'sleep'], materials: ['a 30D nylon air chamber', 'self-inflating open-cell foam'], colors: ['Orange', 'Blue', 'Green', 'Yellow', 'Grey'], sizes: 'mat' },
    { name: 'Camping Stove', syn: ['camp stove', 'backpacking stove', 'burner'], price: [29, 149], features: ['ultralight', 'ultralight', 'packable'], uses: ['boiling water for dehydrated meals', 'morning coffee at camp', 'cooking on the trail'], tags: ['stoves', 'cooking'], materials: ['stainless steel and titanium', 'anodised aluminium'], adjectives: ['compact', 'fast-boiling', 'reliable'] },
    { name: 'Headlamp', syn: ['headlamp', 'head torch', 'head light'], price: [19, 89], features: ['rechargeable', 'rechargeable', 'weatherproof', 'ultralight'], uses: ['night hikes and pre-dawn starts', 'finding things in the tent after dark', 'running in the dark'], tags: ['lighting', 'headlamps'], spec: [{ at: 'before', options: [{ t: '300-Lumen', f: 0.8 }, { t: '450-Lumen' }, { t: '800-Lumen', f: 1.3 }] }], colors: ['Black', 'Orange', 'Blue', 'Yellow', 'Red'], adjectives: ['bright', 'compact', 'lightweight'] },
    { name: 'Camp Chair', syn: ['camp chair', 'folding chair', 'camping seat'], price: [29, 129], features: ['ultralight', 'lowprofile', 'lowprofile'], uses: ['sitting around the campfire', 'festivals and beach days', 'watching kids play sports'], tags: ['chairs', 'furniture'], colors: ['Green', 'Blue', 'Grey', 'Black', 'Red'], adjectives: ['comfortable', 'sturdy', 'compact'], weight: 0.8 },
    { name: 'Camping Lantern', syn: ['lantern', 'camp light', 'tent light'], price: [19, 79], features: ['rechargeable', 'rechargeable', 'weatherproof', 'packable'], uses: ['lighting up the campsite', 'power cuts at home', 'evenings in the tent'], tags: ['lighting', 'lanterns'], colors: ['Black', 'Orange', 'Green', 'Grey'], adjectives: ['bright', 'collapsible', 'warm-glowing'], weight: 0.7 }
  ]
}

const audio: CategoryDef = {
  name: 'Headphones & Audio',
  weight: 1.2,
  tag: 'audio',
  brands: [['Auralis', 1.25], ['Resonar', 1.1], ['Veltone', 0.95], ['Quietwave', 1.05], ['Boomcraft', 0.85]],
  models: TECH_MODELS,
  suffixes: ['Pro', 'Max', 'Lite', '2', '3', 'S', 'X', 'Plus', 'SE'],
  adjectives: ['immersive', 'comfortable', 'punchy', 'crisp-sounding', 'sleek'],
  features: {
    anc: { t: 'Noise-Cancelling', p: ['active noise cancellation hushes engine drone, traffic and office chatter', 'adaptive noise cancelling blocks out the world on planes and trains', 'it silences the hum of busy commutes so you can focus'], tags: ['noise cancelling', 'anc'], f: 1.3 },
    wireless: { t: 'Wireless', p: ['Bluetooth 5.3 pairs instantly with phones and laptops', 'a stable wireless connection means no cables to tangle'], tags: ['wireless', 'bluetooth'], f: 1.1 },
    waterproof: { t: 'Waterproof', p: ['an IPX7 rating means it shrugs off rain, splashes and even a dunk in the pool', 'it is fully waterproof, so the beach and the shower are fair game'], tags: ['waterproof'], f: 1.1 },
    battery: { t: 'Long-Battery', p: ['it plays for up to 40 hours between charges', 'the battery lasts through a week of commutes on a single charge'], tags: ['long battery life'], f: 1.05 },
    usbc: { p: ['it charges over USB-C, and ten minutes gives hours of listening', 'fast USB-C charging tops it up in a coffee break'], tags: ['usb-c', 'fast charging'] },
    hires: { t: 'Hi-Res', p: ['a hi-res certified driver reveals detail in lossless recordings', 'tuned drivers deliver deep bass and clear, sparkling treble'], tags: ['hi-res audio'], f: 1.15 },
    multipoint: { p: ['multipoint pairing switches between your phone and laptop automatically'], tags: ['multipoint'] },
    sweatproof: { t: 'Sweatproof', p: ['it is sweat-resistant and stays put during hard workouts'], tags: ['sweatproof', 'sport'] },
    spatial: { p: ['spatial audio places sound all around you for films and games'], tags: ['spatial audio'] },
    mic: { p: ['beamforming microphones keep your voice clear on calls', 'a boom microphone makes you sound clear in video calls'], tags: ['microphone', 'calls'] }
  },
  types: [
    { name: 'Over-Ear Headphones', syn: ['pair of headphones', 'pair of over-ear headphones', 'headset', 'pair of cans'], price: [59, 449], features: ['anc', 'anc', 'wireless', 'wireless', 'battery', 'usbc', 'hires', 'multipoint', 'spatial', 'mic'], uses: ['long-haul flights', 'focused work in open-plan offices', 'music at home and on the move', 'noisy train commutes'], tags: ['headphones', 'over-ear'], materials: ['memory-foam ear cushions and a padded headband', 'protein leather cushions and an aluminium frame'], colors: GADGET, weight: 2 },
    { name: 'Wireless Earbuds', syn: ['pair of earbuds', 'pair of in-ear headphones', 'set of true wireless buds', 'pair of earphones'], price: [29, 279], features: ['anc', 'anc', 'waterproof', 'battery', 'usbc', 'multipoint', 'spatial', 'sweatproof', 'mic'], uses: ['commutes and workouts', 'calls on the go', 'listening in bed without a bulky headset'], tags: ['earbuds', 'in-ear', 'wireless'], colors: GADGET, adjectives: ['tiny', 'comfortable', 'punchy', 'discreet'], weight: 2 },
    { name: 'Bluetooth Speaker', syn: ['portable speaker', 'wireless speaker', 'speaker'], price: [29, 299], features: ['waterproof', 'waterproof', 'battery', 'usbc'], uses: ['beach days and pool parties', 'camping trips', 'music in the kitchen or garden'], tags: ['speakers', 'portable', 'bluetooth'], colors: BRIGHT, adjectives: ['loud', 'rugged', 'room-filling', 'compact'], weight: 1.5 },
    { name: 'Soundbar', syn: ['soundbar', 'TV speaker', 'home theatre speaker'], price: [129, 699], features: ['wireless', 'spatial', 'spatial', 'hires'], uses: ['movie nights', 'upgrading thin TV sound', 'gaming and sport broadcasts'], tags: ['soundbar', 'home theatre', 'tv'], colors: ['Black', 'White', 'Grey'], adjectives: ['cinematic', 'slim', 'powerful'] },
    { name: 'Open-Ear Sport Headphones', syn: ['pair of open-ear headphones', 'bone-conduction headset', 'sport headset'], price: [59, 179], features: ['sweatproof', 'sweatproof', 'waterproof', 'battery', 'usbc'], uses: ['running on busy roads while still hearing traffic', 'cycling and gym sessions', 'swims and triathlon training'], tags: ['sport', 'open-ear', 'running'], colors: SPORTY, adjectives: ['secure', 'lightweight', 'comfortable'], weight: 0.8 },
    { name: 'Studio Headphones', syn: ['pair of studio headphones', 'monitoring headset', 'pair of wired headphones'], price: [79, 299], features: ['hires', 'hires', 'mic'], uses: ['mixing and recording', 'podcasting', 'critical listening at home'], tags: ['headphones', 'studio', 'wired'], materials: ['velour ear pads and a steel headband'], colors: ['Black', 'Grey', 'Silver'], adjectives: ['accurate', 'neutral', 'comfortable'], weight: 0.8 }
  ]
}

const laptops: CategoryDef = {
  name: 'Laptops & Computers',
  weight: 1.1,
  tag: 'computers',
  brands: [['Veltrix', 1.1], ['Corelane', 1.0], ['Quillbyte', 0.9], ['Arcwell', 1.2], ['Lumetra', 1.0]],
  models: TECH_MODELS,
  suffixes: ['13', '14', '15', '16', 'Pro', 'Plus', 'X'],
  adjectives: ['slim', 'powerful', 'capable', 'sleek', 'dependable'],
  features: {
    touchscreen: { t: 'Touchscreen', p: ['a responsive touchscreen lets you tap, swipe and sketch'], tags: ['touchscreen'], f: 1.08 },
    lightweight: { t: 'Lightweight', p: ['it weighs under 1.2 kg, so it disappears into a bag', 'a thin, featherweight chassis is easy to carry all day'], tags: ['lightweight', 'portable'], f: 1.05 },
    battery: { p: ['the battery lasts a full working day and then some', 'up to 18 hours of battery life gets you through long flights'], tags: ['long battery life'] },
    usbc: { p: ['USB-C ports handle charging, displays and fast data', 'two USB4 ports drive external monitors and charge the machine'], tags: ['usb-c'] },
    usbhub: { t: 'USB-C', p: ['a single USB-C cable carries video, data and power to your laptop', 'one USB-C cable connects and charges your laptop, no dock needed'], tags: ['usb-c'], f: 1.08 },
    usbcharge: { p: ['it recharges over USB-C, so there are no batteries to replace'], tags: ['usb-c', 'rechargeable'] },
    wireless: { t: 'Wireless', p: ['it connects over Bluetooth or a tiny USB receiver to up to three devices'], tags: ['wireless', 'bluetooth'] },
    backlit: { t: 'Backlit', p: ['a backlit keyboard makes late-night typing easy'], tags: ['backlit keyboard'] },
    oled: { t: 'OLED', p: ['an OLED display shows inky blacks and vivid colour', 'a colour-accurate OLED panel suits photo editing'], tags: ['oled'], f: 1.15 },
    highrefresh: { t: '144Hz', p: ['a 144Hz display keeps fast games smooth'], tags: ['144hz', 'gaming'], f: 1.08 },
    fourk: { t: '4K', p: ['a sharp 4K panel makes text crisp and photos pop'], tags: ['4k'], f: 1.2 },
    fanless: { p: ['fanless cooling keeps it silent even under load'], tags: ['quiet', 'fanless'] },
    quietkeys: { t: 'Silent', p: ['quiet switches and dampened keys keep the noise down in shared offices'], tags: ['quiet'] },
    silentclick: { t: 'Silent', p: ['silent buttons click without a sound'], tags: ['quiet'] },
    ergonomic: { t: 'Ergonomic', p: ['a sculpted, vertical shape eases wrist strain during long days'], tags: ['ergonomic'], f: 1.1 },
    rgb: { t: 'RGB', p: ['per-key RGB lighting can be customised to your setup'], tags: ['rgb', 'gaming'] }
  },
  types: [
    { name: 'Ultrabook', syn: ['thin-and-light laptop', 'ultraportable', 'notebook', 'laptop'], price: [799, 1999], features: ['lightweight', 'lightweight', 'battery', 'usbc', 'oled', 'backlit', 'fanless', 'touchscreen'], uses: ['work on the go', 'students and writers', 'travel and coffee-shop productivity'], tags: ['laptops', 'ultrabook'], spec: [{ at: 'after', options: [{ t: '8GB RAM, 256GB SSD', tags: ['8gb ram'], f: 0.8 }, { t: '16GB RAM, 512GB SSD', tags: ['16gb ram'] }, { t: '16GB RAM, 1TB SSD', tags: ['16gb ram', '1tb'], f: 1.15 }, { t: '32GB RAM, 1TB SSD', tags: ['32gb ram', '1tb'], f: 1.35 }] }], materials: ['a machined aluminium unibody', 'a magnesium-alloy chassis'], colors: METAL, weight: 1.5 },
    { name: 'Gaming Laptop', syn: ['gaming laptop', 'gaming notebook', 'portable gaming rig'], price: [999, 2799], features: ['highrefresh', 'highrefresh', 'rgb', 'backlit', 'usbc'], uses: ['AAA games at high settings', 'streaming and video editing', 'LAN parties'], tags: ['laptops', 'gaming'], spec: [{ at: 'after', options: [{ t: '16GB RAM, RTX-class GPU', tags: ['16gb ram'] }, { t: '32GB RAM, RTX-class GPU', tags: ['32gb ram'], f: 1.25 }] }], colors: ['Black', 'Graphite', 'White'], adjectives: ['powerful', 'fast', 'high-performance'] },
    { name: '2-in-1 Laptop', syn: ['convertible laptop', 'laptop-tablet hybrid', '2-in-1'], price: [599, 1499], features: ['touchscreen', 'touchscreen', 'lightweight', 'battery', 'usbc', 'oled'], uses: ['note-taking and sketching', 'students and hybrid workers', 'watching films in tent mode'], tags: ['laptops', '2-in-1', 'convertible'], spec: [{ at: 'after', options: [{ t: '8GB RAM, 256GB SSD', tags: ['8gb ram'], f: 0.85 }, { t: '16GB RAM, 512GB SSD', tags: ['16gb ram'] }] }], colors: METAL },
    { name: 'Chromebook', syn: ['Chromebook', 'cloud laptop', 'school laptop'], price: [199, 549], features: ['lightweight', 'battery', 'battery', 'touchscreen', 'usbc'], uses: ['homework and browsing', 'kids and classrooms', 'email, streaming and web apps'], tags: ['laptops', 'chromebook', 'student'], spec: [{ at: 'after', options: [{ t: '4GB RAM, 64GB', tags: ['4gb ram'], f: 0.8 }, { t: '8GB RAM, 128GB', tags: ['8gb ram'] }] }], colors: ['Silver', 'Grey', 'Blue', 'White'], adjectives: ['affordable', 'simple', 'lightweight'] },
    { name: 'Monitor', syn: ['monitor', 'display', 'screen'], price: [129, 699], suffixes: ['Pro', 'X', 'Plus', 'HDR'], features: ['fourk', 'fourk', 'highrefresh', 'usbhub'], uses: ['home-office setups', 'gaming', 'photo and video editing'], tags: ['monitors', 'displays'], spec: [{ at: 'before', options: [{ t: '24-Inch', f: 0.75 }, { t: '27-Inch' }, { t: '32-Inch', f: 1.3 }, { t: '34-Inch Ultrawide', tags: ['ultrawide'], f: 1.45 }] }], colors: ['Black', 'Silver', 'White'], adjectives: ['sharp', 'colour-accurate', 'bright'] },
    { name: 'Mechanical Keyboard', syn: ['mechanical keyboard', 'keyboard', 'typing deck'], price: [59, 199], suffixes: ['Pro', 'X', 'Mini', 'TKL'], features: ['rgb', 'backlit', 'quietkeys', 'wireless', 'usbcharge'], uses: ['long typing sessions', 'gaming', 'programmers and writers'], tags: ['keyboards', 'mechanical'], colors: ['Black', 'White', 'Grey', 'Blue'], adjectives: ['satisfying', 'compact', 'clicky', 'solid'], weight: 0.8 },
    { name: 'Wireless Mouse', syn: ['mouse', 'wireless mouse', 'cordless mouse'], price: [19, 99], suffixes: ['Pro', 'X', 'Mini', 'Plus'], features: ['silentclick', 'usbcharge', 'ergonomic', 'ergonomic', 'rgb'], uses: ['office work', 'laptop users on the go', 'gaming'], tags: ['mice', 'wireless'], colors: ['Black', 'White', 'Grey', 'Pink'], adjectives: ['ergonomic', 'precise', 'comfortable'], weight: 0.8 }
  ]
}

const phones: CategoryDef = {
  name: 'Smartphones & Tablets',
  weight: 1.1,
  tag: 'mobile',
  brands: [['Orbix', 1.15], ['Nexora', 1.0], ['Veltrix', 1.1], ['Zentel', 0.85], ['Lumetra', 1.0]],
  models: TECH_MODELS,
  suffixes: ['Pro', 'Max', 'Lite', 'Plus', '5', '6', '7', 'Ultra', 'Mini'],
  adjectives: ['sleek', 'capable', 'fast', 'handy', 'slim'],
  features: {
    fiveg: { t: '5G', p: ['5G connectivity keeps downloads fast on the go'], tags: ['5g'], f: 1.05 },
    waterproof: { t: 'Waterproof', p: ['IP68 water resistance survives rain, spills and a drop in the pool', 'it is sealed against dust and water'], tags: ['waterproof', 'ip68'], f: 1.05 },
    fastcharge: { t: 'Fast-Charging', p: ['fast charging adds half a day of power in fifteen minutes', '65W charging fills the battery over breakfast'], tags: ['fast charging'], f: 1.05 },
    usbc: { t: 'USB-C', p: ['it connects and charges over USB-C'], tags: ['usb-c'] },
    magnetic: { t: 'Magnetic', p: ['built-in magnets snap it into place on compatible phones and mounts'], tags: ['magnetic'] },
    rugged: { t: 'Rugged', p: ['military-grade drop protection shrugs off falls onto concrete', 'raised edges and shock-absorbing corners protect against drops'], tags: ['rugged', 'drop protection'], f: 1.1 },
    camera: { p: ['a triple-lens camera takes sharp photos even at night', 'a 50MP main camera captures crisp detail and good low-light shots'], tags: ['camera'] },
    battery: { p: ['a big battery easily lasts two days', 'the battery comfortably lasts from morning to midnight'], tags: ['long battery life'] },
    stylus: { p: ['stylus support makes it great for handwritten notes and drawing'], tags: ['stylus'] },
    slim: { t: 'Slim', p: ['a slim profile adds almost no bulk'], tags: ['slim'] }
  },
  types: [
    { name: 'Smartphone', syn: ['smartphone', 'phone', 'mobile phone', 'handset'], price: [199, 1299], features: ['fiveg', 'fiveg', 'waterproof', 'fastcharge', 'camera', 'camera', 'battery'], uses: ['everyday calls, photos and apps', 'mobile photography', 'staying connected while travelling'], tags: ['phones', 'smartphones'], spec: [{ at: 'after', options: [{ t: '128GB', tags: ['128gb'], f: 0.9 }, { t: '256GB', tags: ['256gb'] }, { t: '512GB', tags: ['512gb'], f: 1.2 }] }], colors: GADGET, weight: 2 },
    { name: 'Tablet', syn: ['tablet', 'slate', 'touchscreen tablet'], price: [149, 1099], features: ['stylus', 'stylus', 'fiveg', 'battery', 'usbc'], uses: ['reading, streaming and browsing on the sofa', 'digital art and note-taking', 'keeping kids entertained on trips'], tags: ['tablets'], spec: [{ at: 'before', options: [{ t: '8-Inch', f: 0.7 }, { t: '11-Inch' }, { t: '13-Inch', f: 1.3 }] }], colors: GADGET, weight: 1.3 },
    { name: 'Phone Case', syn: ['phone case', 'protective cover', 'case'], price: [15, 59], features: ['rugged', 'rugged', 'magnetic', 'slim', 'waterproof'], uses: ['protecting your phone from drops', 'outdoor adventures', 'keeping a new phone scratch-free'], tags: ['cases', 'accessories'], materials: ['shock-absorbing TPU', 'recycled plastic', 'vegan leather'], colors: GADGET, adjectives: ['protective', 'slim', 'grippy'] },
    { name: 'Power Bank', syn: ['portable charger', 'battery pack', 'power bank'], price: [19, 99], features: ['fastcharge', 'fastcharge', 'usbc', 'magnetic', 'slim'], uses: ['travel days and festivals', 'keeping your phone alive on long hikes', 'charging a laptop on flights'], tags: ['chargers', 'accessories', 'battery'], spec: [{ at: 'before', options: [{ t: '10000mAh', f: 0.8 }, { t: '20000mAh' }, { t: '27000mAh', f: 1.35 }] }], colors: ['Black', 'White', 'Grey', 'Blue'], adjectives: ['compact', 'high-capacity', 'pocketable'] },
    { name: 'Wall Charger', syn: ['charger', 'charging brick', 'power adapter'], price: [15, 69], features: ['fastcharge', 'usbc', 'usbc', 'slim'], uses: ['charging a phone, tablet and laptop at once', 'travelling light with one charger', 'the bedside table'], tags: ['chargers', 'accessories', 'usb-c'], spec: [{ at: 'before', options: [{ t: '30W', f: 0.7 }, { t: '65W' }, { t: '100W', f: 1.4 }] }], colors: ['Black', 'White'], adjectives: ['compact', 'fast', 'travel-friendly'] },
    { name: 'Wireless Charging Pad', syn: ['wireless charger', 'charging pad', 'charging stand'], price: [19, 79], features: ['magnetic', 'magnetic', 'fastcharge', 'slim'], uses: ['the nightstand', 'your desk', 'charging phone and earbuds together'], tags: ['chargers', 'wireless charging'], colors: ['Black', 'White', 'Grey'], adjectives: ['sleek', 'minimal', 'cable-free'], weight: 0.8 },
    { name: 'E-Reader', syn: ['e-reader', 'ebook reader', 'e-ink reader'], price: [89, 279], features: ['waterproof', 'waterproof', 'battery', 'usbc'], uses: ['reading in bed and on the beach', 'carrying a library on holiday', 'book clubs and commutes'], tags: ['e-readers', 'books'], spec: [{ at: 'before', options: [{ t: '6-Inch', f: 0.85 }, { t: '7-Inch' }, { t: '10-Inch', f: 1.4 }] }], colors: ['Black', 'White', 'Green', 'Navy'], adjectives: ['glare-free', 'lightweight', 'easy-on-the-eyes'], weight: 0.7 }
  ]
}

const kitchen: CategoryDef = {
  name: 'Kitchen & Cookware',
  weight: 1.2,
  tag: 'kitchen',
  brands: [['Copperleaf', 1.2], ['Hearthwell', 1.0], ['Ironvale', 1.05], ['Marlow & Finch', 1.25], ['Cuisor', 0.85]],
  models: ['Classic', 'Heritage', 'Signature', 'Artisan', 'Provence', 'Tuscan', 'Nordic', 'Everyday', 'Professional', 'Bistro', 'Chef', 'Atelier', 'Harvest', 'Hearth', 'Trattoria', 'Brasserie', 'Kyoto', 'Farmhouse'],
  suffixes: ['Pro', 'Plus', 'II', 'Elite', 'XL', 'Mini'],
  adjectives: ['reliable', 'durable', 'versatile', 'handsome', 'well-balanced'],
  features: {
    nonstick: { t: 'Nonstick', p: ['a PFAS-free ceramic coating lets eggs slide right off', 'a slick coating means food releases easily and cleanup takes seconds'], tags: ['nonstick', 'pfas free'], f: 1.05 },
    induction: { t: 'Induction-Ready', p: ['it works on every hob, including induction', 'a magnetic base heats evenly on gas, electric and induction'], tags: ['induction'], f: 1.05 },
    dishwasher: { p: ['it is dishwasher safe for easy cleanup', 'everything goes straight in the dishwasher'], tags: ['dishwasher safe'] },
    ovensafe: { t: 'Oven-Safe', p: ['it goes from stovetop to a hot oven without a second thought'], tags: ['oven safe'] },
    stainless: { t: 'Stainless Steel', p: ['tri-ply stainless steel spreads heat evenly without hot spots', 'rust-proof stainless steel will last for decades'], tags: ['stainless steel'], f: 1.1 },
    castiron: { t: 'Cast Iron', p: ['heavy cast iron holds heat for a perfect sear', 'pre-seasoned cast iron gets better with every use'], tags: ['cast iron'], f: 1.05, excludes: ['nonstick', 'stainless'] },
    enamel: { t: 'Enamelled', p: ['a glossy enamel coating needs no seasoning'], tags: ['enamel'], f: 1.1 },
    stainlessblade: { t: 'Stainless Steel', p: ['stain-resistant German steel holds a keen edge and will not rust', 'a full-tang stainless steel blade is balanced and easy to look after'], tags: ['stainless steel'], f: 1.05 },
    tilthead: { t: 'Tilt-Head', p: ['a tilt-head design makes it easy to add ingredients and swap attachments', 'a sturdy motor kneads heavy bread dough without straining'], tags: ['tilt-head'], f: 1.05 },
    japanese: { t: 'Japanese Steel', p: ['high-carbon Japanese steel takes and keeps a razor edge', 'a hand-sharpened edge glides through tomatoes and herbs'], tags: ['japanese steel', 'sharp'], f: 1.2 },
    digital: { t: 'Digital', p: ['a digital display and one-touch presets take out the guesswork'], tags: ['digital', 'presets'], f: 1.05 },
    quiet: { p: ['a quiet motor will not wake the house'], tags: ['quiet'] },
    powerful: { t: 'High-Speed', p: ['a powerful motor pulverises ice and frozen fruit', 'a 1500-watt motor makes silky smoothies and nut butters'], tags: ['powerful'], f: 1.1 }
  },
  types: [
    { name: 'Frying Pan', syn: ['skillet', 'frying pan', 'sauté pan', 'fry pan'], price: [25, 149], features: ['nonstick', 'nonstick', 'induction', 'dishwasher', 'ovensafe', 'stainless', 'castiron'], uses: ['weeknight stir-fries and omelettes', 'searing steaks', 'everyday cooking'], tags: ['pans', 'cookware'], spec: [{ at: 'before', options: [{ t: '8-Inch', f: 0.75 }, { t: '10-Inch' }, { t: '12-Inch', f: 1.2 }] }], colors: KITCHEN, weight: 1.6 },
    { name: 'Dutch Oven', syn: ['casserole', 'dutch oven', 'cocotte', 'stew pot'], price: [59, 349], features: ['castiron', 'castiron', 'enamel', 'enamel', 'ovensafe', 'induction'], uses: ['slow-cooked stews and braises', 'baking crusty sourdough', 'soups for a crowd'], tags: ['cookware', 'pots'], spec: [{ at: 'before', options: [{ t: '4.5-Quart', f: 0.85 }, { t: '5.5-Quart' }, { t: '7-Quart', f: 1.2 }] }], colors: KITCHEN, adjectives: ['heavy-duty', 'heirloom-quality', 'versatile'] },
    { name: "Chef's Knife", syn: ["chef's knife", 'kitchen knife', 'cook’s knife', 'gyuto'], price: [29, 199], features: ['japanese', 'japanese', 'stainlessblade', 'dishwasher'], uses: ['chopping vegetables and herbs', 'breaking down chicken', 'everyday prep'], tags: ['knives', 'cutlery'], spec: [{ at: 'before', options: [{ t: '6-Inch', f: 0.85 }, { t: '8-Inch' }, { t: '10-Inch', f: 1.1 }] }], materials: ['a pakkawood handle', 'an olive-wood handle', 'a moulded polymer handle'], adjectives: ['razor-sharp', 'well-balanced', 'precise'] },
    { name: 'Knife Block Set', syn: ['knife set', 'knife block', 'set of kitchen knives'], price: [79, 399], features: ['japanese', 'stainlessblade', 'stainlessblade', 'dishwasher'], uses: ['stocking a new kitchen', 'wedding gifts', 'serious home cooks'], tags: ['knives', 'cutlery', 'sets'], spec: [{ at: 'before', options: [{ t: '7-Piece', f: 0.85 }, { t: '12-Piece' }, { t: '15-Piece', f: 1.15 }] }], materials: ['an acacia wood block', 'a bamboo block'], adjectives: ['complete', 'handsome', 'sharp'], weight: 0.7 },
    { name: 'Cookware Set', syn: ['pots and pans set', 'cookware set', 'pan set'], price: [129, 599], features: ['nonstick', 'stainless', 'stainless', 'induction', 'dishwasher', 'ovensafe'], uses: ['kitting out a first home', 'family cooking', 'replacing a tired set of pans'], tags: ['cookware', 'sets', 'pans', 'pots'], spec: [{ at: 'before', options: [{ t: '5-Piece', f: 0.8 }, { t: '10-Piece' }, { t: '12-Piece', f: 1.15 }] }], colors: KITCHEN },
    { name: 'Blender', syn: ['blender', 'smoothie maker', 'countertop blender'], price: [49, 399], features: ['powerful', 'powerful', 'digital', 'quiet', 'dishwasher'], uses: ['morning smoothies', 'soups, sauces and nut butters', 'crushing ice for cocktails'], tags: ['appliances', 'blenders'], colors: KITCHEN, adjectives: ['powerful', 'sturdy', 'easy-to-clean'] },
    { name: 'Air Fryer', syn: ['air fryer', 'hot-air fryer', 'countertop convection oven'], price: [59, 249], features: ['digital', 'digital', 'dishwasher', 'quiet'], uses: ['crispy chips with a spoonful of oil', 'quick weeknight dinners', 'reheating leftovers'], tags: ['appliances', 'air fryers'], spec: [{ at: 'before', options: [{ t: '4-Quart', f: 0.8 }, { t: '6-Quart' }, { t: 'Dual-Basket 8-Quart', tags: ['dual basket'], f: 1.3 }] }], colors: ['Black', 'White', 'Silver', 'Cream'], adjectives: ['compact', 'speedy', 'easy-to-clean'], weight: 1.3 },
    { name: 'Multi-Cooker', syn: ['pressure cooker', 'multi-cooker', 'electric pressure cooker', 'slow cooker'], price: [69, 199], features: ['digital', 'digital', 'dishwasher'], uses: ['one-pot meals', 'batch cooking beans and rice', 'set-and-forget stews'], tags: ['appliances', 'pressure cooker', 'slow cooker'], spec: [{ at: 'before', options: [{ t: '6-Quart' }, { t: '8-Quart', f: 1.15 }] }], colors: ['Black', 'Silver'], adjectives: ['versatile', 'time-saving', 'reliable'] },
    { name: 'Stand Mixer', syn: ['stand mixer', 'kitchen mixer', 'baking mixer'], price: [199, 549], features: ['tilthead', 'tilthead', 'quiet', 'dishwasher'], uses: ['bread dough and cakes', 'weekend baking projects', 'whipping cream and meringues'], tags: ['appliances', 'baking'], colors: KITCHEN, adjectives: ['sturdy', 'powerful', 'retro-styled'], weight: 0.7 }
  ]
}

const coffee: CategoryDef = {
  name: 'Coffee & Tea',
  weight: 1.1,
  tag: 'coffee',
  brands: [['Burrwell', 1.15], ['Morrow Roasters', 1.0], ['Crema Forge', 1.25], ['Kettleby', 0.95], ['Steepwell', 0.9]],
  models: ['Barista', 'Crema', 'Ristretto', 'Aroma', 'Morning', 'Bloom', 'Daybreak', 'Lungo', 'Doppio', 'Macchiato', 'Roastery', 'Pourover', 'Café', 'Kaffa', 'Mocha'],
  suffixes: ['Pro', 'II', 'Plus', 'Mini', 'Touch', 'One'],
  adjectives: ['compact', 'precise', 'elegant', 'easy-to-use', 'well-built'],
  features: {
    burr: { t: 'Conical Burr', p: ['steel conical burrs give a uniform grind from espresso-fine to French-press coarse', 'precision burrs crush beans evenly instead of chopping them'], tags: ['burr', 'conical burr'], f: 1.1 },
    settings: { p: ['40 grind settings let you dial in any brew method', 'stepless adjustment lets you fine-tune the grind for each bean'], tags: ['adjustable'] },
    programmable: { t: 'Programmable', p: ['a programmable timer has coffee ready when you wake up', 'set it the night before and wake up to a fresh pot'], tags: ['programmable', 'timer'] },
    thermal: { t: 'Thermal', p: ['a double-walled thermal carafe keeps coffee hot for hours without a hot plate'], tags: ['thermal carafe'], f: 1.1 },
    stainless: { t: 'Stainless Steel', p: ['brushed stainless steel looks smart and wipes clean', 'a stainless steel body is built to last for years'], tags: ['stainless steel'], f: 1.05 },
    dosing: { p: ['a timed-dose button grinds exactly the amount you need'], tags: ['timed dosing'] },
    shots: { t: 'Programmable', p: ['programmable shot volumes pull a repeatable espresso every time'], tags: ['programmable'] },
    pid: { t: 'PID', p: ['a PID controller holds the brew temperature steady for consistent shots'], tags: ['temperature control', 'pid'], f: 1.1 },
    hotcold: { p: ['it whips up hot or cold foam in under a minute'], tags: ['cold foam'] },
    tempcontrol: { t: 'Temperature-Control', p: ['precise temperature control brings out the best in green tea and light roasts', 'you can hold the water at exactly the temperature your brew needs'], tags: ['temperature control'], f: 1.1 },
    milk: { p: ['a steam wand textures silky microfoam for lattes and flat whites', 'an automatic milk frother makes cappuccinos at the touch of a button'], tags: ['milk frother', 'latte'] },
    grinder: { t: 'Built-In Grinder', p: ['a built-in grinder doses freshly ground beans for every shot'], tags: ['built-in grinder'], f: 1.25 },
    cordless: { t: 'Cordless', p: ['it lifts off a cordless base for easy pouring'], tags: ['cordless'] },
    organic: { t: 'Organic', p: ['it is certified organic and traded directly with the growers', 'the beans are organically farmed and fairly traded'], tags: ['organic', 'fair trade'], f: 1.15 },
    decaf: { t: 'Decaf', p: ['it is decaffeinated with the Swiss water process, so you can enjoy a cup at bedtime'], tags: ['decaf'] }
  },
  types: [
    { name: 'Burr Coffee Grinder', syn: ['burr grinder', 'coffee mill', 'bean grinder', 'electric grinder'], price: [39, 349], features: ['burr', 'burr', 'settings', 'settings', 'stainless', 'dosing'], uses: ['grinding beans fresh every morning', 'espresso and pour-over at home', 'coffee lovers who want more flavour'], tags: ['grinders', 'coffee grinder'], colors: ['Black', 'Silver', 'White', 'Red'], weight: 1.3 },
    { name: 'Manual Coffee Grinder', syn: ['hand grinder', 'manual mill', 'hand-crank coffee mill'], price: [29, 149], features: ['burr', 'burr', 'settings', 'stainless'], uses: ['travel and camping', 'a quiet morning ritual', 'grinding for one or two cups'], tags: ['grinders', 'coffee grinder', 'manual'], materials: ['an aluminium body with a walnut knob', 'a stainless steel body'], colors: ['Black', 'Silver', 'Walnut'], adjectives: ['portable', 'precise', 'quiet'] },
    { name: 'Espresso Machine', syn: ['espresso maker', 'coffee machine', 'home espresso machine'], price: [149, 1299], features: ['milk', 'milk', 'grinder', 'pid', 'stainless', 'shots'], uses: ['café-style lattes at home', 'a morning flat white', 'learning to pull the perfect shot'], tags: ['espresso', 'coffee machines'], colors: ['Silver', 'Black', 'Red', 'Cream'], adjectives: ['sleek', 'café-quality', 'compact'], weight: 1.3 },
    { name: 'Drip Coffee Maker', syn: ['coffee maker', 'filter coffee machine', 'drip brewer'], price: [39, 199], features: ['programmable', 'programmable', 'thermal', 'stainless'], uses: ['brewing a pot for the whole household', 'busy weekday mornings', 'the office kitchen'], tags: ['coffee makers', 'drip coffee', 'filter coffee'], spec: [{ at: 'before', options: [{ t: '10-Cup' }, { t: '12-Cup', f: 1.1 }] }], colors: ['Black', 'Silver', 'White'], adjectives: ['simple', 'reliable', 'generous'] },
    { name: 'French Press', syn: ['cafetière', 'press pot', 'plunger coffee maker'], price: [19, 69], features: ['stainless', 'stainless', 'thermal'], uses: ['rich, full-bodied coffee', 'brewing for two', 'camping mornings'], tags: ['french press', 'coffee makers'], spec: [{ at: 'before', options: [{ t: '350ml', f: 0.8 }, { t: '1L' }] }], materials: ['borosilicate glass and stainless steel', 'double-walled stainless steel'], colors: ['Silver', 'Black', 'Copper'], adjectives: ['classic', 'simple', 'sturdy'], weight: 0.8 },
    { name: 'Gooseneck Kettle', syn: ['pour-over kettle', 'electric kettle', 'gooseneck kettle'], price: [29, 169], features: ['tempcontrol', 'tempcontrol', 'cordless', 'stainless'], uses: ['pour-over coffee', 'brewing tea at the right temperature', 'a slow, mindful morning routine'], tags: ['kettles', 'pour over', 'tea'], colors: ['Black', 'White', 'Silver', 'Copper'], adjectives: ['precise', 'elegant', 'fast-boiling'] },
    { name: 'Whole Bean Coffee', syn: ['bag of coffee beans', 'bag of whole beans', 'roast', 'coffee'], price: [11, 22], features: ['organic', 'organic', 'decaf'], uses: ['espresso and milk drinks', 'filter and pour-over brewing', 'a comforting morning cup'], tags: ['coffee beans', 'whole bean'], models: ['Sunrise Blend', 'Night Owl', 'House Espresso', 'Ethiopia Yirgacheffe', 'Colombia Huila', 'Guatemala Antigua', 'Sumatra Mandheling', 'Kenya AA', 'Brazil Cerrado', 'Costa Rica Tarrazú'], suffixes: [], spec: [{ at: 'before', options: [{ t: 'Light Roast', p: 'a light roast brings out bright, fruity notes', tags: ['light roast'] }, { t: 'Medium Roast', p: 'a medium roast balances sweetness with notes of chocolate and caramel', tags: ['medium roast'] }, { t: 'Dark Roast', p: 'a dark roast gives a bold, smoky cup with low acidity', tags: ['dark roast'] }] }, { at: 'after', options: [{ t: '12 oz' }, { t: '1 kg', f: 2.2 }, { t: '2 lb', f: 2 }] }], adjectives: ['fresh', 'small-batch', 'single-origin', 'smooth'], brands: ['Morrow Roasters', 'Crema Forge', 'Kettleby'], weight: 1.3 },
    { name: 'Loose Leaf Tea', syn: ['loose tea', 'leaf tea', 'tea', 'blend'], price: [7, 16], features: ['organic', 'organic'], uses: ['an afternoon pick-me-up', 'a calming evening cup', 'brewing in a teapot'], tags: ['tea', 'loose leaf'], models: ['Earl Grey', 'Sencha', 'Jasmine Pearl', 'Chamomile Dream', 'English Breakfast', 'Masala Chai', 'Oolong', 'Peppermint', 'Rooibos'], suffixes: [], spec: [{ at: 'after', options: [{ t: '100 g' }, { t: '250 g', f: 2 }] }], adjectives: ['fragrant', 'soothing', 'refreshing'], brands: ['Steepwell', 'Kettleby', 'Morrow Roasters'] },
    { name: 'Milk Frother', syn: ['milk frother', 'milk foamer', 'frothing wand'], price: [19, 129], features: ['cordless', 'stainless', 'hotcold'], uses: ['lattes and cappuccinos at home', 'hot chocolate', 'matcha lattes'], tags: ['milk frother', 'latte'], colors: ['Black', 'Silver', 'White'], adjectives: ['handy', 'quick', 'compact'], weight: 0.6 }
  ]
}

const home: CategoryDef = {
  name: 'Home & Furniture',
  weight: 1.1,
  tag: 'home',
  brands: [['Oakhollow', 1.2], ['Linden & Co', 1.05], ['Nordhem', 0.95], ['Cozyloom', 0.9], ['Brightloft', 1.0]],
  models: ['Oslo', 'Bergen', 'Aalto', 'Hygge', 'Linden', 'Willow', 'Maple', 'Harbor', 'Haven', 'Arbor', 'Sonoma', 'Camden', 'Brighton', 'Kinfolk', 'Malmo', 'Hudson', 'Tulum', 'Alder'],
  suffixes: ['Plus', 'II', 'Deluxe', 'Compact', 'Grand'],
  adjectives: ['stylish', 'comfortable', 'sturdy', 'timeless', 'cosy'],
  features: {
    ergonomic: { t: 'Ergonomic', p: ['adjustable lumbar support eases back pain during long workdays', 'it supports a healthy posture through hours at the desk'], tags: ['ergonomic', 'lumbar support'], f: 1.15 },
    adjustable: { t: 'Adjustable', p: ['height, tilt and armrests all adjust to fit you', 'a synchro-tilt mechanism and adjustable armrests fit every body'], tags: ['adjustable'], f: 1.1 },
    sitstand: { t: 'Electric', p: ['a dual motor raises it from sitting to standing height at the touch of a button', 'memory presets glide it to your favourite standing height'], tags: ['electric', 'adjustable'], f: 1.1 },
    washablefabric: { t: 'Machine-Washable', p: ['it goes straight in the washing machine and comes out as soft as ever'], tags: ['machine washable'] },
    solidwood: { t: 'Solid Wood', p: ['it is built from solid oak, not veneer', 'solid FSC-certified wood will last for generations'], tags: ['solid wood', 'fsc'], f: 1.2 },
    washable: { t: 'Machine-Washable', p: ['removable covers go straight in the washing machine', 'it survives the washing machine, kids and pets'], tags: ['machine washable'] },
    dimmable: { t: 'Dimmable', p: ['a dimmable warm-white LED sets the mood for reading or relaxing'], tags: ['dimmable', 'led'] },
    modular: { t: 'Modular', p: ['modular sections rearrange as your space changes'], tags: ['modular'] },
    flatpack: { p: ['it arrives flat-packed and assembles in about 20 minutes without tools'], tags: ['easy assembly'] },
    cooling: { t: 'Cooling', p: ['breathable fibres wick heat away for hot sleepers'], tags: ['cooling', 'hot sleepers'], f: 1.1 },
    organic: { t: 'Organic Cotton', p: ['it is made from certified organic cotton that softens with every wash'], tags: ['organic cotton'], f: 1.1 },
    stainresistant: { t: 'Stain-Resistant', p: ['a stain-resistant finish lets spills bead up and wipe away'], tags: ['stain resistant', 'pet friendly'] },
    storage: { p: ['hidden storage keeps clutter out of sight'], tags: ['storage'] }
  },
  types: [
    { name: 'Sofa', syn: ['sofa', 'couch', 'settee'], price: [499, 1999], features: ['washable', 'modular', 'stainresistant', 'stainresistant', 'storage'], uses: ['lazy Sunday afternoons', 'family movie nights', 'small apartments'], tags: ['sofas', 'living room', 'seating'], spec: [{ at: 'before', options: [{ t: '2-Seater', f: 0.75 }, { t: '3-Seater' }, { t: 'Sectional', tags: ['sectional'], f: 1.4 }] }], materials: ['a kiln-dried hardwood frame and linen-blend upholstery', 'performance velvet over high-resilience foam', 'boucle fabric on a solid pine frame'], colors: FABRIC, weight: 1.2 },
    { name: 'Office Chair', syn: ['desk chair', 'office chair', 'task chair', 'work chair'], price: [129, 699], features: ['ergonomic', 'ergonomic', 'adjustable', 'adjustable'], uses: ['long days working from home', 'gaming marathons', 'the home office'], tags: ['chairs', 'office', 'work from home'], materials: ['a breathable mesh back', 'padded fabric and an aluminium base'], colors: ['Black', 'Grey', 'White', 'Navy'], adjectives: ['supportive', 'comfortable', 'sturdy'], weight: 1.2 },
    { name: 'Standing Desk', syn: ['sit-stand desk', 'height-adjustable desk', 'standing desk', 'workstation'], price: [249, 899], features: ['sitstand', 'sitstand', 'solidwood', 'storage'], uses: ['working from home', 'alternating between sitting and standing', 'a healthier home office'], tags: ['desks', 'office', 'work from home'], spec: [{ at: 'before', options: [{ t: '48-Inch', f: 0.9 }, { t: '60-Inch' }, { t: '72-Inch', f: 1.15 }] }], colors: WOOD, adjectives: ['sturdy', 'quiet', 'spacious'] },
    { name: 'Bookshelf', syn: ['bookcase', 'shelving unit', 'bookshelf'], price: [79, 349], features: ['solidwood', 'flatpack', 'flatpack', 'modular'], uses: ['displaying books and plants', 'living rooms and studies', 'kids’ rooms'], tags: ['shelving', 'storage'], spec: [{ at: 'before', options: [{ t: '3-Tier', f: 0.8 }, { t: '5-Tier' }] }], colors: WOOD, adjectives: ['sturdy', 'minimalist', 'timeless'] },
    { name: 'Floor Lamp', syn: ['floor lamp', 'standing lamp', 'reading light'], price: [39, 199], features: ['dimmable', 'dimmable'], uses: ['reading corners', 'soft living-room lighting', 'brightening dark corners'], tags: ['lighting', 'lamps'], materials: ['a brass stem and linen shade', 'matte black steel', 'a rattan shade and oak base'], colors: ['Black', 'Brass', 'White', 'Natural Oak'], adjectives: ['elegant', 'minimalist', 'warm-glowing'] },
    { name: 'Area Rug', syn: ['rug', 'area rug', 'carpet'], price: [79, 499], features: ['washablefabric', 'washablefabric', 'stainresistant'], uses: ['living rooms and bedrooms', 'softening hard floors', 'homes with pets and kids'], tags: ['rugs', 'decor'], materials: ['hand-woven wool', 'recycled PET yarn', 'jute and cotton'], colors: FABRIC, sizes: 'rug', adjectives: ['soft', 'durable', 'textured'] },
    { name: 'Duvet', syn: ['comforter', 'duvet', 'quilt', 'doona'], price: [59, 299], features: ['cooling', 'cooling', 'washablefabric', 'organic'], uses: ['year-round comfort', 'chilly winter nights', 'guest bedrooms'], tags: ['bedding', 'bedroom'], materials: ['responsibly sourced down', 'hypoallergenic down-alternative fill', 'lyocell fibres'], sizes: 'bedding', adjectives: ['lofty', 'cosy', 'breathable'] },
    { name: 'Bed Sheet Set', syn: ['sheet set', 'set of sheets', 'bedding set'], price: [39, 179], features: ['organic', 'organic', 'cooling', 'washablefabric'], uses: ['a better night’s sleep', 'guest rooms', 'hot summer nights'], tags: ['bedding', 'sheets', 'bedroom'], materials: ['400-thread-count sateen', 'stonewashed linen', 'soft percale'], colors: FABRIC, sizes: 'bedding', adjectives: ['crisp', 'soft', 'breathable'] },
    { name: 'Throw Blanket', syn: ['throw', 'blanket', 'sofa throw'], price: [25, 99], features: ['washablefabric', 'organic'], uses: ['curling up on the sofa', 'chilly evenings', 'adding texture to a bed'], tags: ['blankets', 'decor'], materials: ['chunky knit cotton', 'soft merino wool', 'waffle-weave cotton'], colors: FABRIC, adjectives: ['cosy', 'soft', 'snug'], weight: 0.8 }
  ]
}

const beauty: CategoryDef = {
  name: 'Beauty & Skincare',
  weight: 1.1,
  tag: 'beauty',
  brands: [['Dewlane', 1.1], ['Petalry', 1.0], ['Lumiskin', 1.2], ['Botaniq', 0.95], ['Clearbrook', 0.85]],
  models: ['Glow', 'Dew', 'Pure', 'Bloom', 'Radiance', 'Calm', 'Velvet', 'Silk', 'Aqua', 'Botanica', 'Renew', 'Daily', 'Balance', 'Clarity', 'Oasis'],
  suffixes: [],
  adjectives: ['gentle', 'lightweight', 'nourishing', 'soothing', 'effective'],
  features: {
    fragrancefree: { t: 'Fragrance-Free', p: ['it contains no added perfume, so reactive skin stays calm', 'the unscented formula suits people who react to perfume'], tags: ['fragrance free', 'sensitive skin'] },
    sensitive: { p: ['it is dermatologist-tested for sensitive and easily irritated skin', 'a calming formula with oat and ceramides soothes redness'], tags: ['sensitive skin'] },
    vitaminc: { t: 'Vitamin C', p: ['vitamin C brightens dull skin and fades dark spots'], tags: ['vitamin c', 'brightening'], f: 1.1 },
    hyaluronic: { t: 'Hyaluronic Acid', p: ['hyaluronic acid draws moisture in for plump, hydrated skin', 'it floods dry, tight skin with lasting hydration'], tags: ['hyaluronic acid', 'hydrating'], f: 1.05 },
    retinol: { t: 'Retinol', p: ['encapsulated retinol smooths fine lines overnight'], tags: ['retinol', 'anti-aging'], f: 1.2 },
    mineral: { t: 'Mineral', p: ['zinc-oxide filters sit on the skin and are reef-friendly', 'mineral filters protect without a chemical sunscreen smell'], tags: ['mineral', 'reef safe'], f: 1.05 },
    vegan: { t: 'Vegan', p: ['it is vegan and never tested on animals'], tags: ['vegan', 'cruelty free'] },
    oilfree: { t: 'Oil-Free', p: ['the oil-free gel will not clog pores or leave a greasy shine'], tags: ['oil free', 'oily skin'] },
    ionic: { t: 'Ionic', p: ['ionic technology tames frizz and speeds up drying', 'it dries hair quickly while keeping it smooth and shiny'], tags: ['ionic', 'frizz control'], f: 1.1 },
    sulfatefree: { t: 'Sulfate-Free', p: ['a sulfate-free formula cleans without stripping colour-treated hair'], tags: ['sulfate free'] }
  },
  types: [
    { name: 'Moisturizer', syn: ['face cream', 'moisturiser', 'day cream', 'hydrating cream'], price: [12, 68], features: ['fragrancefree', 'sensitive', 'hyaluronic', 'hyaluronic', 'vegan', 'oilfree'], uses: ['dry, tight skin', 'a simple morning routine', 'winter-chapped faces'], tags: ['skincare', 'moisturizer', 'face'], spec: [{ at: 'after', options: [{ t: '50 ml' }, { t: '100 ml', f: 1.5 }] }], weight: 1.5 },
    { name: 'Face Serum', syn: ['serum', 'treatment serum', 'face oil'], price: [15, 89], features: ['vitaminc', 'vitaminc', 'hyaluronic', 'retinol', 'retinol', 'vegan', 'fragrancefree'], uses: ['dull, tired-looking skin', 'evening routines', 'fine lines and uneven tone'], tags: ['skincare', 'serum', 'face'], spec: [{ at: 'after', options: [{ t: '30 ml' }] }], weight: 1.3 },
    { name: 'Sunscreen', syn: ['sunscreen', 'sun cream', 'sunblock', 'daily SPF'], price: [9, 39], features: ['mineral', 'mineral', 'fragrancefree', 'oilfree', 'sensitive'], uses: ['beach holidays', 'daily wear under make-up', 'kids and outdoor sports'], tags: ['skincare', 'sunscreen', 'spf'], spec: [{ at: 'before', options: [{ t: 'SPF 30', tags: ['spf 30'] }, { t: 'SPF 50', tags: ['spf 50'], f: 1.1 }] }], weight: 1.2 },
    { name: 'Facial Cleanser', syn: ['face wash', 'cleanser', 'cleansing gel'], price: [8, 35], features: ['fragrancefree', 'sensitive', 'oilfree', 'vegan'], uses: ['removing make-up and sunscreen', 'morning and evening routines', 'oily and combination skin'], tags: ['skincare', 'cleanser', 'face'], spec: [{ at: 'after', options: [{ t: '150 ml' }, { t: '250 ml', f: 1.4 }] }] },
    { name: 'Shampoo', syn: ['shampoo', 'hair wash', 'hair cleanser'], price: [8, 32], features: ['sulfatefree', 'sulfatefree', 'vegan', 'fragrancefree'], uses: ['colour-treated hair', 'everyday washing', 'curly and frizzy hair'], tags: ['haircare', 'shampoo'], spec: [{ at: 'after', options: [{ t: '250 ml' }, { t: '500 ml', f: 1.6 }] }] },
    { name: 'Hair Dryer', syn: ['hair dryer', 'blow dryer', 'hairdryer'], price: [39, 299], features: ['ionic', 'ionic'], uses: ['quick blow-drys before work', 'travel', 'smooth salon-style finishes at home'], tags: ['haircare', 'hair tools'], colors: ['Black', 'White', 'Pink', 'Rose Gold', 'Purple'], adjectives: ['powerful', 'lightweight', 'quiet', 'fast-drying'] },
    { name: 'Lip Balm', syn: ['lip balm', 'lip treatment', 'lip salve'], price: [4, 15], features: ['vegan', 'fragrancefree'], uses: ['chapped lips in winter', 'keeping in your pocket', 'overnight lip repair'], tags: ['skincare', 'lips'], spec: [{ at: 'before', options: [{ t: 'SPF 15', tags: ['spf'] }, { t: 'Tinted', tags: ['tinted'] }, { t: '' }] }], adjectives: ['nourishing', 'soothing', 'silky'], weight: 0.7 }
  ]
}

const toys: CategoryDef = {
  name: 'Toys & Games',
  weight: 1.0,
  tag: 'toys',
  brands: [['Tinkertown', 1.0], ['Playforge', 1.1], ['Brickwell', 1.15], ['Puzzlewood', 0.95], ['Cubbyhouse', 0.85]],
  models: ['Dino', 'Rocket', 'Robo', 'Jungle', 'Castle', 'Safari', 'Turbo', 'Pirate', 'Ocean', 'Space', 'Farm', 'Dragon', 'Rainbow', 'Explorer', 'Wizard', 'Meadow'],
  suffixes: [],
  adjectives: ['fun', 'colourful', 'imaginative', 'engaging', 'sturdy'],
  features: {
    stem: { t: 'STEM', p: ['it teaches early coding, engineering and problem-solving through play', 'kids learn logic and engineering while they build'], tags: ['stem', 'educational'], f: 1.1 },
    wooden: { t: 'Wooden', p: ['it is made from sustainably sourced wood with non-toxic paint'], tags: ['wooden', 'eco'] },
    rechargeable: { t: 'Rechargeable', p: ['a rechargeable battery means no drawer full of spare batteries'], tags: ['rechargeable'] },
    glow: { t: 'Glow-in-the-Dark', p: ['pieces glow in the dark for bedtime fun'], tags: ['glow in the dark'] },
    family: { p: ['games take 30 minutes, so the whole family can play after dinner', 'simple rules mean grandparents and kids can play together'], tags: ['family'] },
    coop: { t: 'Cooperative', p: ['players work together rather than against each other'], tags: ['cooperative'] },
    offroad: { t: 'Off-Road', p: ['chunky tyres and springy suspension handle grass, gravel and dirt'], tags: ['off road'], f: 1.1 }
  },
  types: [
    { name: 'Building Blocks Set', syn: ['construction set', 'set of building bricks', 'brick set'], price: [19, 149], features: ['stem', 'glow'], uses: ['creative kids', 'rainy afternoons', 'birthday gifts'], tags: ['building', 'construction toys'], spec: [{ at: 'before', options: [{ t: '250-Piece', tags: ['ages 6+'], f: 0.6 }, { t: '600-Piece', tags: ['ages 8+'] }, { t: '1,200-Piece', tags: ['ages 10+'], f: 1.7 }] }], weight: 1.4 },
    { name: 'Board Game', syn: ['board game', 'tabletop game', 'family game'], price: [19, 69], features: ['family', 'family', 'coop'], uses: ['family game nights', 'parties with friends', 'two-player evenings'], tags: ['games', 'board games'], spec: [{ at: 'before', options: [{ t: '', tags: ['ages 8+'] }, { t: 'Strategy', tags: ['strategy', 'ages 12+'], f: 1.2 }, { t: 'Party', tags: ['party', 'ages 10+'] }] }], adjectives: ['clever', 'fast-paced', 'fun', 'strategic'], weight: 1.3 },
    { name: 'Jigsaw Puzzle', syn: ['jigsaw', 'puzzle', 'jigsaw puzzle'], price: [12, 39], features: ['glow', 'wooden'], uses: ['quiet evenings', 'puzzle lovers', 'family holidays'], tags: ['puzzles'], spec: [{ at: 'before', options: [{ t: '500-Piece', f: 0.8 }, { t: '1000-Piece' }, { t: '2000-Piece', f: 1.3 }] }], adjectives: ['challenging', 'beautiful', 'relaxing'] },
    { name: 'Plush Toy', syn: ['stuffed animal', 'soft toy', 'cuddly toy', 'plushie'], price: [12, 45], features: [], uses: ['bedtime cuddles', 'newborn gifts', 'toddlers'], tags: ['plush', 'soft toys', 'baby'], models: ['Bear', 'Bunny', 'Fox', 'Dinosaur', 'Unicorn', 'Elephant', 'Sloth', 'Penguin', 'Dragon', 'Otter'], materials: ['ultra-soft recycled plush', 'organic cotton'], colors: ['Brown', 'Grey', 'Pink', 'Blue', 'Cream', 'Green'], adjectives: ['huggable', 'soft', 'adorable'] },
    { name: 'Remote Control Car', syn: ['RC car', 'remote control truck', 'radio-controlled car'], price: [29, 149], features: ['rechargeable', 'rechargeable', 'offroad', 'offroad'], uses: ['backyard racing', 'kids who love speed', 'park adventures'], tags: ['rc', 'cars', 'outdoor toys'], colors: TOY, adjectives: ['speedy', 'tough', 'thrilling'] },
    { name: 'Dinosaur Figure Set', syn: ['set of dinosaur toys', 'dino figure set', 'prehistoric play set'], price: [15, 59], features: ['glow', 'wooden'], uses: ['dinosaur-mad kids', 'imaginative play', 'birthday gifts for 4 to 8 year olds'], tags: ['dinosaurs', 'figures', 'ages 3+'], spec: [{ at: 'before', options: [{ t: '12-Piece', f: 0.8 }, { t: '24-Piece', f: 1.2 }] }], adjectives: ['realistic', 'detailed', 'chunky'] },
    { name: 'Wooden Train Set', syn: ['train set', 'wooden railway', 'toy train'], price: [29, 129], features: ['wooden', 'wooden'], uses: ['toddlers and preschoolers', 'building tracks on the living room floor', 'heirloom gifts'], tags: ['trains', 'wooden toys', 'ages 3+'], spec: [{ at: 'before', options: [{ t: '50-Piece', f: 0.8 }, { t: '100-Piece', f: 1.3 }] }], adjectives: ['classic', 'sturdy', 'timeless'] },
    { name: 'Coding Robot Kit', syn: ['robot kit', 'programmable robot', 'coding toy'], price: [39, 179], features: ['stem', 'stem', 'rechargeable'], uses: ['kids curious about coding', 'classrooms and clubs', 'gifts for budding engineers'], tags: ['robots', 'stem', 'coding', 'ages 8+'], colors: TOY, adjectives: ['clever', 'interactive', 'educational'] }
  ]
}

const cycling: CategoryDef = {
  name: 'Cycling',
  weight: 1.0,
  tag: 'cycling',
  brands: [['Spokeworks', 1.1], ['Chainline', 1.0], ['Rollwell', 0.9], ['Velomara', 1.25], ['Hillclimb', 0.95]],
  models: ['Strada', 'Col', 'Velo', 'Rouleur', 'Gravel', 'Enduro', 'Switch', 'Commuter', 'Sprint', 'Apex', 'Ridge', 'Flow', 'Urban', 'Randonneur', 'Dirtline', 'Canyonero'],
  suffixes: ['SL', 'Comp', 'Sport', 'Pro', 'Elite', '2', 'Expert'],
  adjectives: ['fast', 'smooth-riding', 'capable', 'dependable', 'lively'],
  features: {
    carbon: { t: 'Carbon', p: ['a carbon frame is stiff where it matters and light enough to fly up climbs', 'the lightweight carbon frame soaks up road buzz'], tags: ['carbon'], f: 1.4, excludes: ['aluminium'] },
    aluminium: { t: 'Aluminium', p: ['a tough aluminium frame keeps the price down without the weight penalty'], tags: ['aluminium'], f: 0.9 },
    discbrakes: { p: ['hydraulic disc brakes stop confidently in the wet', 'powerful disc brakes give control on steep, wet descents'], tags: ['disc brakes'] },
    fullsus: { t: 'Full-Suspension', p: ['front and rear suspension smooth out roots, rocks and drops'], tags: ['full suspension'], f: 1.35, excludes: ['hardtail'] },
    hardtail: { t: 'Hardtail', p: ['a suspension fork up front and a rigid rear keep it efficient and simple'], tags: ['hardtail'] },
    tubeless: { p: ['tubeless-ready wheels shrug off punctures'], tags: ['tubeless'] },
    rechargeable: { t: 'Rechargeable', p: ['it charges over USB-C in a couple of hours'], tags: ['rechargeable', 'usb-c'] },
    bright: { p: ['a powerful beam lights up unlit lanes and makes you visible to drivers'], tags: ['bright'] },
    reflective: { t: 'Reflective', p: ['reflective details make you stand out in headlights'], tags: ['reflective'] },
    impact: { p: ['a low-friction liner reduces rotational forces in an angled crash', 'an extra impact liner adds protection in crashes'], tags: ['safety'], f: 1.15 },
    ventilated: { p: ['big vents keep your head cool on hot climbs'], tags: ['ventilated'] },
    breathable: { t: 'Breathable', p: ['a wicking fabric pulls sweat away and dries fast'], tags: ['breathable', 'quick dry'] },
    security: { t: 'High-Security', p: ['a hardened shackle resists bolt cutters and leverage attacks'], tags: ['high security'], f: 1.2 }
  },
  types: [
    { name: 'Road Bike', syn: ['road bike', 'racing bike', 'road racer'], price: [899, 3999], features: ['carbon', 'carbon', 'aluminium', 'discbrakes', 'discbrakes', 'tubeless'], uses: ['fast group rides', 'sportives and long road miles', 'climbing mountain passes'], tags: ['bikes', 'road cycling'], colors: BIKE, sizes: 'bike', weight: 1.3 },
    { name: 'Mountain Bike', syn: ['mountain bike', 'MTB', 'trail bike'], price: [599, 3499], features: ['fullsus', 'fullsus', 'hardtail', 'hardtail', 'discbrakes', 'tubeless', 'carbon'], uses: ['singletrack and trail centres', 'rocky descents', 'weekend off-road adventures'], tags: ['bikes', 'mountain biking', 'mtb'], colors: BIKE, sizes: 'bike', weight: 1.3 },
    { name: 'Gravel Bike', syn: ['gravel bike', 'all-road bike', 'adventure bike'], price: [999, 3299], features: ['carbon', 'aluminium', 'discbrakes', 'tubeless', 'tubeless'], uses: ['gravel roads and forest tracks', 'bikepacking trips', 'mixed-surface commutes'], tags: ['bikes', 'gravel', 'bikepacking'], colors: BIKE, sizes: 'bike' },
    { name: 'Electric Bike', syn: ['e-bike', 'electric bicycle', 'pedal-assist bike'], price: [1299, 4499], features: ['aluminium', 'discbrakes', 'discbrakes'], uses: ['commuting without arriving sweaty', 'hilly towns', 'replacing short car trips'], tags: ['bikes', 'e-bike', 'electric', 'commuting'], spec: [{ at: 'before', options: [{ t: 'City', p: 'a 50-mile battery range covers a week of commuting', tags: ['city'] }, { t: 'Folding', p: 'it folds in seconds to fit under a desk or on a train', tags: ['folding'], f: 0.9 }, { t: 'Cargo', p: 'a long rear rack carries kids, groceries or a week of shopping', tags: ['cargo'], f: 1.3 }] }], colors: BIKE, sizes: 'bike', weight: 1.2 },
    { name: 'Bike Helmet', syn: ['helmet', 'cycling helmet', 'bike lid'], price: [39, 249], features: ['impact', 'impact', 'ventilated', 'ventilated', 'reflective'], uses: ['road rides', 'commuting', 'mountain bike trails'], tags: ['helmets', 'safety'], colors: BIKE, sizes: 'helmet', adjectives: ['lightweight', 'protective', 'well-ventilated'], weight: 1.2 },
    { name: 'Bike Light Set', syn: ['bike light set', 'set of front and rear lights', 'pair of cycle lights'], price: [19, 99], features: ['rechargeable', 'rechargeable', 'bright', 'bright'], uses: ['winter commuting in the dark', 'night rides on country lanes', 'being seen in traffic'], tags: ['lights', 'safety', 'commuting'], spec: [{ at: 'before', options: [{ t: '400-Lumen', f: 0.8 }, { t: '800-Lumen' }, { t: '1200-Lumen', f: 1.3 }] }], colors: ['Black'], adjectives: ['bright', 'compact', 'weatherproof'] },
    { name: 'Bike Lock', syn: ['bike lock', 'D-lock', 'U-lock', 'chain lock'], price: [25, 119], features: ['security'], uses: ['leaving your bike in the city', 'securing an e-bike', 'overnight street parking'], tags: ['locks', 'security'], materials: ['hardened steel', 'a hardened steel chain in a fabric sleeve'], colors: ['Black', 'Yellow', 'Orange'], adjectives: ['tough', 'secure', 'heavy-duty'], weight: 0.8 },
    { name: 'Cycling Jersey', syn: ['jersey', 'cycling top', 'bike shirt'], price: [39, 129], features: ['breathable', 'breathable', 'reflective'], uses: ['summer road rides', 'long sportives', 'club rides'], tags: ['clothing', 'jerseys'], materials: ['recycled polyester knit', 'merino blend'], colors: SPORTY, sizes: 'apparel', audience: true, adjectives: ['aerodynamic', 'comfortable', 'close-fitting'] }
  ]
}

const watches: CategoryDef = {
  name: 'Watches & Wearables',
  weight: 1.0,
  tag: 'watches',
  brands: [['Tickwell', 1.0], ['Halden', 1.2], ['Corvane', 1.1], ['Pulsetrack', 0.95], ['Meridell', 1.25]],
  models: ['Mariner', 'Aviator', 'Fieldmaster', 'Regatta', 'Chrono', 'Pilot', 'Diver', 'Horizon', 'Sextant', 'Atlas', 'Pulse', 'Stride', 'Vector', 'Orbit', 'Compass', 'Tideline'],
  suffixes: ['II', 'Pro', 'Sport', '40', '42', 'GMT', 'S'],
  adjectives: ['handsome', 'rugged', 'sleek', 'precise', 'everyday'],
  features: {
    gps: { t: 'GPS', p: ['built-in GPS maps your runs and rides without a phone', 'dual-band GPS tracks your route accurately even among tall buildings'], tags: ['gps'], f: 1.15 },
    heartrate: { p: ['an optical sensor tracks heart rate around the clock', 'it keeps an eye on your heart rate and blood oxygen'], tags: ['heart rate'] },
    sleep: { p: ['sleep tracking shows how well you rested and when to take it easy'], tags: ['sleep tracking'] },
    waterresistant: { t: 'Water-Resistant', p: ['200 m water resistance makes it safe for swimming and snorkelling', 'it is water resistant to 100 m, so a swim is no problem'], tags: ['water resistant', 'swimming'], f: 1.05 },
    sapphire: { t: 'Sapphire', p: ['a scratch-resistant sapphire crystal stays clear for years'], tags: ['sapphire crystal'], f: 1.15 },
    automatic: { t: 'Automatic', p: ['a self-winding automatic movement runs on the motion of your wrist', 'a mechanical movement means no battery ever'], tags: ['automatic', 'mechanical'], f: 1.4, excludes: ['solar', 'battery'] },
    solar: { t: 'Solar', p: ['solar charging stretches the battery to weeks', 'light powers it, so the battery never needs swapping'], tags: ['solar'], f: 1.15 },
    battery: { p: ['the battery lasts up to two weeks between charges'], tags: ['long battery life'] },
    nfc: { p: ['contactless payments let you leave your wallet at home'], tags: ['contactless payments'] }
  },
  types: [
    { name: 'Smartwatch', syn: ['smartwatch', 'smart watch', 'connected watch'], price: [129, 499], features: ['gps', 'heartrate', 'heartrate', 'sleep', 'nfc', 'battery', 'waterresistant'], uses: ['notifications and fitness on your wrist', 'tracking daily health', 'leaving your phone in your pocket'], tags: ['smartwatches', 'wearables'], spec: [{ at: 'before', options: [{ t: '41mm', f: 0.95 }, { t: '45mm', f: 1.05 }] }], materials: ['an aluminium case and sport band', 'a stainless steel case and leather strap'], colors: WATCH, weight: 1.5 },
    { name: 'Fitness Tracker', syn: ['fitness band', 'activity tracker', 'step counter'], price: [39, 179], features: ['heartrate', 'heartrate', 'sleep', 'sleep', 'battery', 'waterresistant'], uses: ['counting steps and workouts', 'tracking sleep', 'staying motivated to move'], tags: ['fitness trackers', 'wearables'], colors: ['Black', 'Pink', 'Blue', 'Green', 'White'], adjectives: ['slim', 'lightweight', 'discreet'], weight: 1.2 },
    { name: 'GPS Running Watch', syn: ['running watch', 'multisport watch', 'training watch'], price: [179, 649], features: ['gps', 'gps', 'gps', 'heartrate', 'solar', 'battery', 'waterresistant'], uses: ['marathon training', 'triathlons', 'ultra-distance trail races'], tags: ['running', 'sport watches', 'wearables'], colors: ['Black', 'Blue', 'Orange', 'White', 'Green'], adjectives: ['rugged', 'lightweight', 'data-rich'] },
    { name: 'Dive Watch', syn: ['diver', 'dive watch', 'diving watch'], price: [149, 899], features: ['waterresistant', 'waterresistant', 'waterresistant', 'automatic', 'sapphire'], uses: ['snorkelling and diving', 'beach holidays', 'everyday wear with a sporty edge'], tags: ['watches', 'dive watches'], materials: ['a brushed stainless steel case and bracelet', 'a titanium case and rubber strap'], colors: WATCH },
    { name: 'Field Watch', syn: ['field watch', 'military-style watch', 'everyday watch'], price: [89, 399], features: ['automatic', 'sapphire', 'solar', 'waterresistant'], uses: ['outdoor adventures', 'everyday wear', 'a first mechanical watch'], tags: ['watches', 'field watches'], materials: ['a stainless steel case and canvas strap', 'a bead-blasted steel case and leather strap'], colors: ['Green', 'Black', 'Tan', 'Silver'] },
    { name: 'Chronograph', syn: ['chronograph', 'stopwatch watch', 'dress chronograph'], price: [129, 699], features: ['sapphire', 'automatic', 'solar'], uses: ['the office and evenings out', 'timing laps and intervals', 'gifting'], tags: ['watches', 'chronograph'], materials: ['a polished stainless steel case and leather strap'], colors: WATCH, adjectives: ['elegant', 'refined', 'handsome'] }
  ]
}

const fitness: CategoryDef = {
  name: 'Fitness & Yoga',
  weight: 0.9,
  tag: 'fitness',
  brands: [['Flexcore', 1.0], ['Ironroot', 1.1], ['Lotusline', 1.05], ['Gripwell', 0.9]],
  models: ['Core', 'Flow', 'Balance', 'Power', 'Iron', 'Studio', 'Lotus', 'Vinyasa', 'Forge', 'Summit', 'Pulse', 'Anchor'],
  suffixes: ['Pro', 'Plus', 'II', 'Max'],
  adjectives: ['durable', 'versatile', 'space-saving', 'solid'],
  features: {
    nonslip: { t: 'Non-Slip', p: ['a grippy surface holds even when your hands get sweaty', 'it stays put on hardwood floors during hot yoga'], tags: ['non slip'] },
    eco: { t: 'Eco', p: ['it is made from natural tree rubber and cork, with no PVC', 'biodegradable natural rubber makes it kinder to the planet'], tags: ['eco', 'natural rubber'], f: 1.15 },
    thick: { t: 'Extra-Thick', p: ['extra cushioning protects knees and wrists on hard floors'], tags: ['extra thick', 'cushioned'] },
    tray: { p: ['a storage tray keeps them tidy in a corner of the room'], tags: ['storage tray'] },
    quickchange: { p: ['a twist of the handle changes the weight in seconds'], tags: ['quick change'] },
    textured: { t: 'Textured', p: ['a ridged surface digs into knots like a massage therapist’s thumbs'], tags: ['textured'] },
    folding: { t: 'Folding', p: ['it folds upright and rolls away on wheels when you are done'], tags: ['foldable', 'space saving'] },
    travel: { t: 'Travel', p: ['it is light enough to pack for hotel-room workouts'], tags: ['travel'] }
  },
  types: [
    { name: 'Yoga Mat', syn: ['yoga mat', 'exercise mat', 'pilates mat'], price: [19, 99], features: ['nonslip', 'nonslip', 'eco', 'thick', 'travel'], uses: ['daily yoga practice', 'pilates and stretching', 'hot yoga classes'], tags: ['yoga', 'mats'], colors: ['Purple', 'Teal', 'Black', 'Grey', 'Pink', 'Blue', 'Sand'], sizes: 'mat', adjectives: ['grippy', 'cushioned', 'lightweight', 'durable'], weight: 1.5 },
    { name: 'Adjustable Dumbbells', syn: ['adjustable dumbbell set', 'dumbbell set', 'set of free weights'], price: [99, 399], features: ['quickchange', 'quickchange', 'tray'], uses: ['home gyms', 'strength training in small spaces', 'replacing a rack of weights'], tags: ['weights', 'strength'], spec: [{ at: 'before', options: [{ t: '25 lb', f: 0.8 }, { t: '52 lb' }, { t: '90 lb', f: 1.35 }] }], colors: ['Black', 'Grey'] },
    { name: 'Resistance Bands Set', syn: ['resistance band set', 'set of exercise bands', 'set of loop bands'], price: [12, 49], features: ['travel', 'travel'], uses: ['physio and rehab', 'travel workouts', 'glute and mobility work'], tags: ['bands', 'strength', 'mobility'], colors: ['Multicolour', 'Black', 'Pink'], adjectives: ['versatile', 'portable', 'durable'] },
    { name: 'Foam Roller', syn: ['foam roller', 'massage roller', 'muscle roller'], price: [15, 59], features: ['travel', 'textured', 'textured'], uses: ['post-run recovery', 'easing tight calves and back muscles', 'warm-ups'], tags: ['recovery', 'massage'], colors: ['Black', 'Blue', 'Orange', 'Green'], adjectives: ['firm', 'textured', 'lightweight'] },
    { name: 'Kettlebell', syn: ['kettlebell', 'kettle bell', 'swing weight'], price: [25, 119], features: [], uses: ['swings and full-body conditioning', 'home workouts', 'CrossFit-style training'], tags: ['weights', 'strength'], spec: [{ at: 'before', options: [{ t: '8 kg', f: 0.7 }, { t: '12 kg' }, { t: '16 kg', f: 1.25 }, { t: '24 kg', f: 1.6 }] }], materials: ['solid cast iron', 'powder-coated cast iron', 'competition-style steel'], colors: ['Black', 'Grey', 'Red'] },
    { name: 'Exercise Bike', syn: ['indoor bike', 'spin bike', 'exercise bike', 'stationary bike'], price: [299, 1299], features: ['folding', 'folding'], uses: ['cardio at home', 'rainy-day training', 'following online spin classes'], tags: ['cardio', 'bikes', 'home gym'], colors: ['Black', 'White', 'Grey'], adjectives: ['quiet', 'smooth', 'sturdy'], weight: 0.8 },
    { name: 'Jump Rope', syn: ['skipping rope', 'jump rope', 'speed rope'], price: [9, 39], features: ['travel', 'travel'], uses: ['quick cardio sessions', 'boxing training', 'warm-ups'], tags: ['cardio'], colors: ['Black', 'Red', 'Blue', 'Pink'], adjectives: ['fast', 'adjustable', 'tangle-free'], weight: 0.6 }
  ]
}

export const categories: readonly CategoryDef[] = [
  outdoorFootwear, running, jackets, bags, camping, audio, laptops, phones, kitchen, coffee, home, beauty, toys, cycling, watches, fitness
]

export const SIZE_TABLES: Readonly<Record<Exclude<SizeKind, 'shoe'>, readonly string[]>> = {
  apparel: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  bike: ['XS', 'S', 'M', 'L', 'XL'],
  helmet: ['S', 'M', 'L'],
  bedding: ['Twin', 'Full', 'Queen', 'King', 'California King'],
  rug: ['3x5 ft', '5x8 ft', '8x10 ft', '9x12 ft'],
  'sleeping-bag': ['Regular', 'Long'],
  torso: ['S/M', 'M/L'],
  mat: ['Standard', 'Long', 'Wide']
}
