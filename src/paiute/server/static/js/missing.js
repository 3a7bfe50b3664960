// The "no such table" page: its words (and the language switcher) only; nothing connects.

import { applyStrings } from "./strings.js";

applyStrings();
