import { create } from 'zustand';

/** Which of the shell's dialogs is open (the welcome dialog follows the stored welcome flag instead). */
export type ShellDialog = 'settings' | 'shortcuts' | 'delete_account' | 'rename';

export interface UiState {
  dialog: ShellDialog | null;
  openDialog(dialog: ShellDialog): void;
  closeDialog(): void;
}

export const useUi = create<UiState>()((set) => ({
  dialog: null,
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: null }),
}));
