/**
 * A codebook as the analysis is given it: the codebooks feature owns it, and reports (which code
 * answers against it) import it from here.
 */
export interface CodebookTheme {
  theme: string;
  description: string | null;
  examples: string[];
}

export interface CodebookQuestion {
  questionIndex: number;
  themes: CodebookTheme[];
}
