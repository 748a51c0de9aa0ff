import { Router } from 'express';
import type { ServiceContext } from '../server';

/**
 * The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith).
 * Empty for now: filled by the marketplace task: listings, search, tags and purchases with their 30-day licences.
 */
export function createRouter(_context: ServiceContext): Router {
  const router = Router();
  return router;
}
