-- Why an assistant turn went the way it did (decision 17: route, evidence and scores, handoff
-- reason), for the project's team only. Null on user messages, a team member's answers, and the
-- assistant messages stored before it was kept.
ALTER TABLE messages ADD COLUMN decision jsonb;
ALTER TABLE messages ADD CONSTRAINT messages_decision_is_assistant CHECK (decision IS NULL OR role = 'assistant');
