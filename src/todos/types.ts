/** The status of one todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One item of the agent's todo list (the shape Claude Code's `TodoWrite` uses). */
export interface Todo {
  /** What is to be done, imperative: "Draft the introduction". */
  content: string;
  status: TodoStatus;
  /** Present continuous, shown while in progress: "Drafting the introduction". */
  activeForm: string;
}
