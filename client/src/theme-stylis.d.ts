/** The little of stylis (Emotion's CSS compiler, untyped) that theme-css.ts uses. */
declare module 'stylis' {
  export interface Element {
    type: string;
    value: string;
    root: Element | null;
    return: string;
  }
  export type Middleware = (element: Element, index: number, children: Element[], callback: Middleware) => string | void;
  export function compile(css: string): Element[];
  export function serialize(elements: Element[], callback: Middleware): string;
  export function middleware(collection: Middleware[]): Middleware;
  export const prefixer: Middleware;
  export const stringify: Middleware;
}
