// Titles for the ids the screens service answers with: shared with the fleet health view, so kept in src/lib.
export { type Titles, titlesOf, useTitles } from '../../../lib/titles';
