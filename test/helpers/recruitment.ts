import { PROLIFIC_EXAMPLE } from '../../src/recruitment/recruitment.controller';

/** The panel of the recruitment suites: its redirects are compared or captured, never loaded. */
export const PANEL = 'https://panel.example';

export const PANEL_REDIRECTS = {
  completed: `${PANEL}/complete?cc=DONE&pid={pid}&study={STUDY_ID}`,
  screenout: `${PANEL}/screenout?pid={pid}`,
  overquota: `${PANEL}/full?pid={pid}`,
  quality: `${PANEL}/quality?pid={pid}`,
  abandoned: `${PANEL}/abandoned?pid={pid}`,
};

/**
 * A screener of one single-choice and one multiple-choice question, each with an option that does not
 * qualify: the documented example's question, then a question of devices.
 */
export const SCREENER = [
  PROLIFIC_EXAMPLE.screener[0],
  {
    screenerID: 'devices',
    question: 'Which devices do you order on?',
    multiple: true,
    options: [
      { option: 'Phone', qualifies: true },
      { option: 'Laptop', qualifies: true },
      { option: 'None of these', qualifies: false },
    ],
  },
];
