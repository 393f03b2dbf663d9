/**
 * The shapes the console's API answers with, from @chatsearch/contracts: its own routes' and those
 * of the chat and search services it forwards. Only the types are imported, so no schema code
 * reaches the bundle.
 */
import type { ChatAnalyticsResponse, Credential, SearchAnalyticsResponse } from '@chatsearch/contracts'

export type {
  AdminChatDetail, AdminChatList, AdminChatSummary, AdminMessage, CatalogSettings, Citation, Classification, ConsoleProject as Project,
  Credential, DocumentsResponse, ErrorBody, FacetHit, FacetSearchBody, FacetSearchResponse, Feedback, IssuedCredential, KnowledgeDocument, KnowledgeListResponse, KnowledgeSummary, MatchingStrategy, Member, Message,
  NewUserMessageResponse, ProjectRole as Role, SearchBody, SearchHit, SearchResponse, SearchRule, SearchRulesResponse, SessionResponse as Session,
  SuggestionCandidate, SuggestionCandidatesResponse, Task, TaskAccepted, TaskList, TurnDecision, WebhookDelivery, WebhookDeliveryList,
  WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType, WidgetSettings
} from '@chatsearch/contracts'

export type Service = Credential['service']

/** GET /api/projects/:id/analytics: the chat and the search service's figures side by side. */
export interface Analytics {
  chat: ChatAnalyticsResponse
  search: SearchAnalyticsResponse
}
