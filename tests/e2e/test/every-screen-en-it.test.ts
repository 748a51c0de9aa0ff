// Every screen in English and Italian (layout, every word in the reader's language): every-screen.ts.
import { everyScreen } from './every-screen';

everyScreen(['en', 'it'], { extras: false });
