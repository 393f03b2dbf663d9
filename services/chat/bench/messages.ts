import type { Classification } from '@chatsearch/contracts'

/** What shoppers write, with the label a person would give it: seeded history and live traffic. */
export const shopperMessages: ReadonlyArray<{ text: string, label: Classification }> = [
  { text: 'hi there', label: 'greeting' },
  { text: 'Hello! Anyone around to help me?', label: 'greeting' },
  { text: 'good morning', label: 'greeting' },
  { text: 'Do you have the Nike Pegasus 41 in size 10?', label: 'question' },
  { text: 'how long does shipping to Lyon usually take', label: 'question' },
  { text: 'Is the Dyson V15 cordless vacuum in stock?', label: 'question' },
  { text: 'what is the difference between the 128GB and 256GB iPad Air?', label: 'question' },
  { text: 'Are these jeans true to size or should I size up?', label: 'question' },
  { text: 'Can I return a jacket I bought on sale?', label: 'question' },
  { text: 'which running shoes are good for flat feet under 120 dollars', label: 'question' },
  { text: 'Please cancel my order 48213, I ordered the wrong color.', label: 'request' },
  { text: 'I want to change the delivery address on my last order', label: 'request' },
  { text: 'Show me waterproof hiking boots for women, size 38', label: 'request' },
  { text: 'send me a list of gaming laptops with an RTX 4070', label: 'request' },
  { text: 'Can you add gift wrapping to order 77120 please', label: 'request' },
  { text: 'My package arrived damaged and the screen is cracked.', label: 'complaint' },
  { text: 'I have been waiting three weeks for a refund, this is unacceptable', label: 'complaint' },
  { text: 'the blender you sent me stopped working after two days', label: 'complaint' },
  { text: 'Wrong size delivered AGAIN. second time this month.', label: 'complaint' },
  { text: 'Love the new checkout, it was super quick!', label: 'feedback' },
  { text: 'your delivery driver was really friendly, thanks', label: 'feedback' },
  { text: 'The product photos could show the back of the item too.', label: 'feedback' },
  { text: 'thanks, that is all for now', label: 'other' },
  { text: 'ok', label: 'other' },
  { text: 'lol my cat just walked over the keyboard', label: 'other' }
]

/** Replies stored in the seeded history (the live assistant writes its own). */
export const assistantReplies: readonly string[] = [
  'Hello! I can help you find products, compare options, and check prices and availability. What are you looking for today?',
  'Here is what I found in the catalog: Nike Pegasus 41 (size 10, in stock, 129.99).',
  'I cannot do that from this chat: I can only search the catalog and answer from it. For an order, a refund or your account, please contact the shop\'s team directly.',
  'I am sorry about this. I cannot resolve it from this chat; please contact the shop\'s team directly, with your order number if it concerns an order.',
  'Thank you for the feedback. Is there anything else I can help you find?',
  'Nothing in the catalog matches that exactly. Try describing it differently, or give me a brand, a category or a price range.',
  'You are welcome! Come back any time.'
]
