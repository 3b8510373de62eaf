/** Text lengths in characters (code points) as the interfaces count them (api/ imports application/ only). */
export { characters } from '../../domain/shared/characters.js';
