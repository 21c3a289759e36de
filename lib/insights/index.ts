/**
 * Insights: the daily analysis of each planet (agent with read and write tools, or the rule-based
 * analysis when no model is configured), stored idempotently in workspace_insights, and its hourly
 * fan-out at 06:00 local time.
 */
export { analyzePlanet, analyzeWithRules, ANALYSIS_TRIGGER, type AnalysisOutcome } from './analyze';
export { findCandidates, type Candidates } from './candidates';
export { hasData, ruleBasedInsights, SEVERITIES, type InsightDraft, type Severity } from './rules';
export { ANALYSIS_HOUR, analysisState, claimDueAnalyses, getAnalysisState, pruneAnalysisDays, recordAnalysis, runAnalysisNow, type AnalysisNow, type AnalysisState } from './schedule';
export { planetMetricsTool } from './tools';
export { INSIGHT_SOURCES, INSIGHT_STATUSES, INSIGHT_VIEW, insightStatusSchema, listInsights, setInsightStatus, upsertInsights, type InsightStatus, type InsightView } from './store';
