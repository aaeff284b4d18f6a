import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from './ErrorPage.tsx';

interface State {
  error: Error | null;
}

/**
 * Shows the error page instead of a blank screen when a screen throws while
 * rendering (BrowserRouter has no route error elements). Keyed by the path by
 * its parent, so navigating away recovers.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) return <ErrorPage message={this.state.error.message} />;
    return this.props.children;
  }
}
