export { startFakeModelServer } from './fake-server';
export type { FakeModelServer, RecordedRequest, Responder, ScriptedResponse, ScriptedTurn } from './fake-server';
export { createTestWorkspace, testPolicy, useFakeModelEnv } from './fixtures';
