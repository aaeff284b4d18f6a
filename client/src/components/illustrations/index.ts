/*
 * The pictures drawn for Hitline: each in a module of its own, so
 * a screen loads only its own (the lobby's is in the initial bundle, budget P9).
 */
export { EmptyLobbyIllustration } from './EmptyLobbyIllustration.tsx';
export { WelcomeIllustration } from './WelcomeIllustration.tsx';
export { WinIllustration } from './WinIllustration.tsx';
