import { toolTurnsModel } from './fake-model.mjs';
import { median } from './stats.mjs';

/**
 * The phases of one tool turn, each between two observable points (agent events, or the model
 * call), with the source functions that run in between.
 */
export const PHASES = [
  ['turn-start', 'model call', 'prepareRequest (sendableHistory, capRequestImages), modelTurn → streamTurn, model.stream() started'],
  ['model call', 'turn-end', 'stream drained, countUsage, normalizeAssistantMessage, observeUsage, pushAssistant (commit), context-usage and tool-call events'],
  ['turn-end', 'permission-decision', 'resolveTurn → decidePermissionNow (steps 1-7: validateInput … toolCheck), permission-decision entry'],
  ['permission-decision', 'tool-result', 'commitCallAllowed, executeTools → runCall (a synchronous tool runs at once, no queue), toToolResultContent, answerCall'],
  ['tool-result', 'turn-start', 'batchResults, takeReminders, appendUserContent (commit), checkStopConditions, prepareContext'],
];

/**
 * Times the phases of `toolTurns` one-call turns, `runs` times, with listeners that only read
 * `performance.now()`. Returns, per phase, the median over all turns in µs.
 */
export async function phaseBreakdown({ createAgent, tool, toolTurns = 200, runs = 5 }) {
  const samples = PHASES.map(() => []);
  for (let run = 0; run < runs; run++) {
    const marks = [];
    const mark = (label) => () => marks.push([label, performance.now()]);
    const model = toolTurnsModel({ toolName: tool.name, toolTurns, onCall: (now) => marks.push(['model call', now]) });
    const agent = createAgent({ model, tools: [tool], maxTurns: toolTurns + 1 });
    for (const type of ['turn-start', 'turn-end', 'permission-decision', 'tool-result']) agent.on(type, mark(type));
    await agent.run('Go.').result;
    // Walk the marks in order; each phase is the gap from its start label to the next mark.
    for (let index = 0; index + 1 < marks.length; index++) {
      const [from, at] = marks[index];
      const [to, next] = marks[index + 1];
      const phase = PHASES.findIndex(([start, end]) => start === from && end === to);
      if (phase >= 0) samples[phase].push((next - at) * 1000);
    }
  }
  return PHASES.map(([from, to, what], index) => ({ from, to, what, medianUs: median(samples[index]), count: samples[index].length }));
}
