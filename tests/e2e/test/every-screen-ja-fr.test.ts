// Every screen in Japanese and French (axe, layout, Tab, every word in the reader's language), the dialogs and the
// player without a mouse: every-screen.ts.
import { everyScreen } from './every-screen';

everyScreen(['ja', 'fr'], { extras: true });
