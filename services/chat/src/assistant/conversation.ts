/**
 * The assistant's one word for an earlier message of the conversation, as the planner and the
 * model's prompt read it (the stored form is the contracts' Message; the model's wire form is
 * llm/client.ts's ChatMessage).
 */
export interface HistoryTurn { role: 'user' | 'assistant', content: string }
