// Deals and pipeline (spec: Deal, Deal stage, "Deals and pipeline"). Served by crm.DealService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listDeals, createDeal } from './deals.js';
import { getDeal } from './deals.id.js';
import { advanceDeal } from './deals.id.advance.js';
import { loseDeal } from './deals.id.lose.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const dealEndpoints: EndpointDef[] = [listDeals, getDeal, createDeal, advanceDeal, loseDeal];
