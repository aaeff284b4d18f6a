/**
 * A pause in the evaluation of the app's modules: importing this ends the
 * current task, and the modules imported after it are evaluated in a new one
 * (the bundle keeps the import order, and its code after a top-level await
 * runs once that resolves). main.tsx imports it between groups of modules, so
 * evaluating ~600 kB of JavaScript is not one long task (budget P10).
 */
export {};
await new Promise<void>((resolve) => setTimeout(resolve, 0));
