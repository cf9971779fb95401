// Side-effect import, first in every entry point: a .env file, when present, fills
// variables the environment does not already set. Tests do not import it on purpose.
import { config } from 'dotenv';

config({ quiet: true });
