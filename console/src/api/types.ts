/** Friendly names for the generated contract types (src/api/generated is produced by `npm run generate`). */
import type { components } from './generated/schema';

type S = components['schemas'];
export type Organization = S['Organization'];
export type Role = S['Role'];
export type Membership = S['Membership'];
export type CloudAccount = S['CloudAccount'];
export type CloudAccountRegistration = S['CloudAccountRegistration'];
export type Instance = S['Instance'];
export type InstanceState = S['InstanceState'];
export type InstanceCreation = S['InstanceCreation'];
export type InstanceUpdate = S['InstanceUpdate'];
export type WalType = S['WalType'];
export type FsxThroughput = S['FsxThroughput'];
export type FsxSpec = S['FsxSpec'];
export type Operation = S['Operation'];
export type OperationState = S['OperationState'];
export type EstimateRequest = S['EstimateRequest'];
export type CostEstimate = S['CostEstimate'];
export type SizingCatalog = S['SizingCatalog'];
export type AuditEvent = S['AuditEvent'];
export type Problem = S['Problem'];
export type FieldError = S['FieldError'];
export type Capacity = S['Capacity'];
