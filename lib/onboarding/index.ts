/**
 * Onboarding: a new person's business set up in a few phone screens, saved step by step
 * (public.onboarding) so it can be left and resumed; the last step creates the team workspace with its
 * opening hours, services, staff and a starter team of agents for its sector, in one transaction.
 */
export {
  answersSchema,
  finishOnboarding,
  getOnboarding,
  ONBOARDING_STEPS,
  saveStep,
  saveStepSchema,
  skipOnboarding,
  type Onboarding,
  type OnboardingAnswers,
  type OnboardingStep,
  type SaveStep,
} from './onboarding';
export { SECTOR_STARTERS, type SectorStarter, type StarterService } from './starters';
export { starterTeam, type StarterAgent } from './team';
