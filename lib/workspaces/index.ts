export * from './workspaces';
export { SECTORS, SECTOR_IDS } from './sectors';
export type { SectorId } from './sectors';
