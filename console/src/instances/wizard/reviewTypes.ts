import type { CostEstimate, EstimateRequest } from '../../api/types';

export type { EstimateRequest };
export type CostBreakdownLike = CostEstimate['diskless'];
