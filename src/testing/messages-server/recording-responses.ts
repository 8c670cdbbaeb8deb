import type { WireEvent } from './scripted-turn-events.js';

/** A recording split into server-sent-event frames. */
export interface RecordingFrames {
  /** Wire text of each frame, ending with its blank line, ready to write. */
  frames: string[];
  /** The parsed `data` payload of each frame that has JSON data. */
  events: WireEvent[];
}

/**
 * Splits a recording into responses (a response ends at its `message_stop` or where the next
 * `message_start` begins: some recordings hold several consecutive responses of a multi-step
 * exchange, or a response cut off by an `error` frame followed by its retry) and each response
 * into SSE frames. Full SSE text (`event:`/`data:` lines) is kept
 * verbatim, padding included; one-JSON-object-per-line text (vercel-ai `.chunks.txt`) gets an
 * `event:` line named after each object's `type`, as the real API sends it.
 * @param recording - raw text of the recording file.
 */
export function recordingResponses(recording: string): RecordingFrames[] {
  const text = recording.replace(/\r\n?/g, '\n');
  const all = /^(event|data):/m.test(text) ? fromSse(text) : fromJsonLines(text);
  const responses: RecordingFrames[] = [];
  let current: RecordingFrames = { frames: [], events: [] };
  all.frames.forEach((frame, index) => {
    const event = all.parsed[index];
    // A new message_start begins a new response even without a message_stop before it (a response
    // cut off by an error frame, then the retried response).
    if (event?.type === 'message_start' && current.events.some((seen) => seen.type === 'message_start')) {
      responses.push(current);
      current = { frames: [], events: [] };
    }
    current.frames.push(frame);
    if (event) current.events.push(event);
    if (event?.type === 'message_stop') {
      responses.push(current);
      current = { frames: [], events: [] };
    }
  });
  const last = responses[responses.length - 1];
  if (current.frames.length > 0) {
    // Trailing frames after the last message_stop belong to it; a stream cut off before its
    // message_stop is a response of its own.
    if (last && !current.events.some((event) => event.type === 'message_start')) {
      last.frames.push(...current.frames);
      last.events.push(...current.events);
    } else responses.push(current);
  }
  return responses;
}

/** Frames of the whole recording, with the parsed event of each (undefined when not JSON). */
interface ParsedRecording {
  frames: string[];
  parsed: Array<WireEvent | undefined>;
}

function fromSse(text: string): ParsedRecording {
  const frames: string[] = [];
  const parsed: Array<WireEvent | undefined> = [];
  for (const chunk of text.split(/\n\n+/)) {
    if (chunk.trim() === '') continue;
    frames.push(`${chunk}\n\n`);
    const data = chunk
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    parsed.push(parseEvent(data));
  }
  return { frames, parsed };
}

function fromJsonLines(text: string): ParsedRecording {
  const frames: string[] = [];
  const parsed: WireEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = parseEvent(line);
    if (!event) throw new Error(`Recording line is not a JSON event with a "type": ${line.slice(0, 120)}`);
    parsed.push(event);
    frames.push(`event: ${event.type}\ndata: ${line}\n\n`);
  }
  return { frames, parsed };
}

function parseEvent(data: string): WireEvent | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as WireEvent).type === 'string') {
      return value as WireEvent;
    }
  } catch {
    // not JSON: not an event we can assemble
  }
  return undefined;
}
