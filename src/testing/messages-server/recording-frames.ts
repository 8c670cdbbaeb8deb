import type { WireEvent } from './scripted-turn-events.js';

/** A recording split into server-sent-event frames. */
export interface RecordingFrames {
  /** Wire text of each frame, ending with its blank line, ready to write. */
  frames: string[];
  /** The parsed `data` payload of each frame that has JSON data. */
  events: WireEvent[];
}

/**
 * Splits a recorded response into SSE frames. Full SSE text (`event:`/`data:` lines) is kept
 * verbatim, padding included; one-JSON-object-per-line text (vercel-ai `.chunks.txt`) gets an
 * `event:` line named after each object's `type`, as the real API sends it.
 * @param recording - raw text of the recording file.
 */
export function recordingFrames(recording: string): RecordingFrames {
  const text = recording.replace(/\r\n?/g, '\n');
  return /^(event|data):/m.test(text) ? fromSse(text) : fromJsonLines(text);
}

function fromSse(text: string): RecordingFrames {
  const frames: string[] = [];
  const events: WireEvent[] = [];
  for (const chunk of text.split(/\n\n+/)) {
    if (chunk.trim() === '') continue;
    frames.push(`${chunk}\n\n`);
    const data = chunk
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    const event = parseEvent(data);
    if (event) events.push(event);
  }
  return { frames, events };
}

function fromJsonLines(text: string): RecordingFrames {
  const frames: string[] = [];
  const events: WireEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = parseEvent(line);
    if (!event) throw new Error(`Recording line is not a JSON event with a "type": ${line.slice(0, 120)}`);
    events.push(event);
    frames.push(`event: ${event.type}\ndata: ${line}\n\n`);
  }
  return { frames, events };
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
