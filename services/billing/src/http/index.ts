import { Router } from 'express';
import type { ServiceContext } from '../server';

/**
 * The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith).
 * Empty for now: filled by the billing task: points ledger, point packages and card payments, membership plans and renewals, cash-out.
 */
export function createRouter(_context: ServiceContext): Router {
  const router = Router();
  return router;
}
