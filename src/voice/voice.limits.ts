/** Bounds of voice interviews: the recordings the room takes, and the speech servers' settings and answers. */
export const VOICE_LIMITS = {
  /** A recording sent to POST /i/{linkID}/audio: larger bodies are refused (413) before they are read to the end. */
  audioBytes: 10 * 1024 * 1024,
  /** A recording's length, read from its container where that is cheap, else from the transcriber's answer (413). */
  audioSeconds: 180,
  /** The page stops recording at this, so that a recording always arrives under audioSeconds. */
  recordSeconds: 170,
  model: 200,
  voice: 100,
  transcriberTimeoutMs: { min: 1000, max: 600_000, default: 60_000 },
  speakerTimeoutMs: { min: 1000, max: 120_000, default: 30_000 },
  /** A transcriber's answer larger than this is not read to the end (a 180 s transcript is a few KB). */
  transcriptionResponseBytes: 1024 * 1024,
  /** The longest transcript stored as an answer: far above what 180 s of speech can hold. */
  transcriptChars: 20_000,
  /** What the speech server is given to say: OpenAI's /v1/audio/speech takes at most 4,096 characters. */
  speechChars: 4096,
  /** A speech server's audio larger than this is not read to the end. */
  speechBytes: 10 * 1024 * 1024,
} as const;

/** What browsers record (MediaRecorder: WebM/Opus, Ogg/Opus, MP4/AAC) and the usual files: the Content-Types the room takes. */
export const AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/wav'] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];

/** The file name a transcriber is sent for each type: OpenAI's endpoint reads the format from the extension. */
export const AUDIO_FILE_NAMES: Record<AudioType, string> = {
  'audio/webm': 'answer.webm',
  'audio/ogg': 'answer.ogg',
  'audio/mp4': 'answer.m4a',
  'audio/mpeg': 'answer.mp3',
  'audio/wav': 'answer.wav',
};

/** The interview modes: `text` (typed answers) and `voice` (spoken answers, transcribed; typing stays possible). */
export const INTERVIEW_MODES = ['text', 'voice'] as const;
export type InterviewMode = (typeof INTERVIEW_MODES)[number];
