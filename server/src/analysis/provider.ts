// The understanding step behind AI_PROVIDER: what the pipeline hands over, what it gets back.
// The media pipeline measures; a provider turns measurements into words and vectors.

/** Dimension of every stored embedding (videos.embedding, scenes.embedding). */
export const EMBEDDING_DIM = 384;

export interface CaptionCue {
  startMs: number;
  endMs: number;
  text: string;
}

/** What the pipeline measured about one scene. */
export interface SceneEvidence {
  index: number;
  startMs: number;
  endMs: number;
  /** Local paths of the scene's frame images (JPEG/WebP), evenly spaced. */
  framePaths: string[];
  /** Caption text spoken or shown during the scene. */
  captions: string;
  /** Visual features measured by ffmpeg (0..1 brightness, motion, dominant colour names...). */
  visual: {
    brightness: number;
    motion: number;
    dominantColors: string[];
  };
  /** Text read on screen (OCR), when available: the lines of onScreenLines joined. */
  onScreenText?: string;
  /** The same text line by line, with its glyph height as a share of the frame height. */
  onScreenLines?: ScreenLine[];
  /** People recognised by their faces (names of the team's people images), best match first. */
  people?: string[];
  /** Faces seen that match no uploaded person (the most seen together on one frame). */
  unnamedPeople?: number;
  /** COCO object labels seen on enough frames (English, as the model names them). */
  objects?: string[];
}

/** A line of text read on screen; size is its glyph height as a share of the frame height. */
export interface ScreenLine {
  text: string;
  size: number;
}

/** What OCR read in each scene's frames. */
export interface ScreenTextReading {
  /** Lines per scene, in reading order, same order as the scenes given. */
  scenes: ScreenLine[][];
  /** Frames read and the time it took, for the logs. */
  framesRead: number;
  ms: number;
}

export interface VideoEvidence {
  filename: string;
  /** BCP 47-ish code from GET /api/supported-videos-languages, e.g. "en", "ja". */
  outputLanguage: string;
  aboutThisVideo: string;
  people: { name: string; imagePath: string }[];
  durationSec: number;
  width: number | undefined;
  height: number | undefined;
  creationDate: string | undefined;
  captions: CaptionCue[];
  scenes: SceneEvidence[];
}

export interface VideoUnderstanding {
  title: string;
  summary: string;
  /** Topic tags and social tags (#hashtag style), most relevant first. */
  tags: string[];
  /** One description per scene, same order as evidence.scenes. */
  sceneDescriptions: string[];
}

/** What a question about one video (the report's instruction) is answered from. */
export interface AnswerContext {
  language: string;
  title: string;
  summary: string;
  scenes: {
    index: number;
    startTime: string;
    endTime: string;
    description: string;
    captions: string;
  }[];
}

export interface GroundedAnswer {
  /** Plain text; paragraphs separated by blank lines. */
  text: string;
  /** Scene indexes the answer relies on. */
  sceneIndexes: number[];
}

export interface AnalysisProvider {
  readonly name: 'local' | 'openai';
  understand(evidence: VideoEvidence): Promise<VideoUnderstanding>;
  /** One EMBEDDING_DIM vector per text, L2-normalised. */
  embed(texts: string[]): Promise<number[][]>;
  /** Speech to caption cues; undefined when the provider cannot transcribe. */
  transcribe?(audioPath: string, language: string): Promise<CaptionCue[]>;
  /** A written answer grounded in the scenes; undefined when the provider can only quote them. */
  answer?(question: string, context: AnswerContext): Promise<GroundedAnswer>;
}
