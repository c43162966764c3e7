import type { Check } from '../check.js';
import { AUTH_CHECKS } from './auth.js';
import { CREATE_PET_CHECKS } from './create-pet.js';
import { DOCUMENT_CHECKS } from './document.js';
import { ERROR_CHECKS } from './errors.js';
import { GET_PET_CHECKS } from './get-pet.js';
import { HTTP_CHECKS } from './http.js';
import { IDEMPOTENCY_CHECKS } from './idempotency.js';
import { LIST_PETS_CHECKS } from './list-pets.js';
import { PAGING_CHECKS } from './paging.js';

/**
 * Every check, in the order a run takes them. The document checks come last, as they judge the
 * answers the others received.
 */
export const CHECKS: readonly Check[] = [
  ...AUTH_CHECKS,
  ...LIST_PETS_CHECKS,
  ...PAGING_CHECKS,
  ...CREATE_PET_CHECKS,
  ...IDEMPOTENCY_CHECKS,
  ...GET_PET_CHECKS,
  ...ERROR_CHECKS,
  ...HTTP_CHECKS,
  ...DOCUMENT_CHECKS,
];
