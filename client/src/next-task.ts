/** Ends the current task: the work after it runs in a new one, so no single task blocks the page for long (budget P10). */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
