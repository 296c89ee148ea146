/** The chat message shape every LLM role sends (a subset of OpenAI's chat format). */
type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}
