/**
 * Sales: the pipeline board — deals by stage, who owns them — and what a member does with a deal:
 * move it to another stage, mark it won or lost, reopen it. Each in one RLS transaction; any member
 * of the workspace may move any deal (the planets migration's policies), whoever owns it. Tables:
 * pipeline_stages and deals (supabase/migrations/20261130000300_planets.sql).
 *
 * The boss view (docs/sales.md): quotas with attainment and pace, territories that route open deals
 * and leads to an owner (with a preview of what a change moves), commission plans (members see only
 * their own, by RLS) with a what-if, and per-stage call scripts
 * (supabase/migrations/20261203030000_sales_boss.sql).
 */
export {
  boardQuerySchema,
  changeDeal,
  CLOSED_SHOWN_DAYS,
  createDeal,
  dealChangeSchema,
  dealCreateSchema,
  pipelineBoard,
  type BoardQuery,
  type DealChange,
  type DealCreate,
  type DealView,
  type OwnerView,
  type PipelineBoard,
  type StageView,
} from './deals';
export {
  assignmentSchema,
  assignPlan,
  commissionWhatIf,
  isManager,
  overviewQuerySchema,
  quotaInputSchema,
  salesOverview,
  setQuota,
  whatIfSchema,
  type CommissionView,
  type PersonStanding,
  type QuotaView,
  type SalesOverview,
  type WhatIf,
} from './boss';
export {
  activateModel,
  activateModelSchema,
  changeTerritory,
  createTerritory,
  createTerritoryModel,
  territoriesView,
  territoryChangeSchema,
  territoryCreateSchema,
  territoryModelSchema,
  type Move,
  type RoutingChange,
  type TerritoriesView,
  type TerritoryModelView,
  type TerritoryView,
} from './territories';
export {
  commissionPlanChangeSchema,
  commissionPlans,
  commissionPlanSchema,
  createCommissionPlan,
  updateCommissionPlan,
  type CommissionPlanInput,
  type CommissionPlans,
  type CommissionPlanView,
  type SalesPerson,
} from './plans';
export { callScripts, dealScript, dealScriptIn, scriptBodySchema, setCallScript, type DealScript, type StageScript } from './scripts';
export {
  commissionOf,
  paceOf,
  routeTo,
  SALES_PERIODS,
  QUOTA_METRICS,
  TERRITORY_FIELDS,
  type Commission,
  type CommissionPlanRules,
  type Pace,
  type PaceStatus,
  type SalesPeriod,
  type QuotaMetric,
  type TerritoryField,
  type TerritoryRule,
} from './rules';
export { seedSalesDemo, DEMO_REPS } from './demo';
export { salesReadTools, salesStandingTool } from './tools';
