/** Domain errors as the interfaces see them (api/ imports application/ only): docs/conventions.md, "Errors". */
export { DomainError, isDomainError } from '../../domain/shared/errors.js';
