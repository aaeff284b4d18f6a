import { Box } from '@chakra-ui/react';
import {
  DndContext,
  DragOverlay,
  MouseSensor,
  TouchSensor,
  useDraggable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragOverEvent,
} from '@dnd-kit/core';
import type { ReactNode } from 'react';
import { notify } from '../../../a11y/notify.ts';
import { useGame } from '../../../stores/game.ts';
import { HitCard } from './HitCard.tsx';
import { useTable } from './table-store.ts';

/** The dragged card's id. */
const MYSTERY = 'mystery';

/**
 * Nothing said by the drag library: dragging is a pointer gesture only (the
 * radio buttons are the keyboard and screen-reader path), and its own English
 * texts would be read to nobody who needs them.
 */
const SILENT: Announcements = {
  onDragStart: () => undefined,
  onDragMove: () => undefined,
  onDragOver: () => undefined,
  onDragEnd: () => undefined,
  onDragCancel: () => undefined,
};

const slotOf = (data: { current?: Record<string, unknown> } | undefined): number | null => {
  const slot = data?.current?.slot;
  return typeof slot === 'number' ? slot : null;
};

/**
 * The table's drag and drop (the game screen is lazy, so is this): the mystery
 * card can be dragged into a free gap of the turn player's row, with the mouse
 * (after 5 px, so a click stays a click) or a finger (after a short press, so a
 * swipe still scrolls the page). A drop chooses that gap, exactly as a tap on
 * it does; the choice is then confirmed with the panel's button.
 */
export function TableDnd({ children }: { children: ReactNode }) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 8 } }),
  );
  const dragging = useTable((s) => s.dragging);
  const over = (e: DragOverEvent): void => useTable.getState().setDrag(true, slotOf(e.over?.data));
  const end = (e: DragEndEvent): void => {
    useTable.getState().setDrag(false, null);
    const slot = slotOf(e.over?.data);
    if (slot === null) return;
    useGame.getState().setChoice(slot);
    notify.playSfx('select_slot');
  };
  return (
    <DndContext
      sensors={sensors}
      accessibility={{ announcements: SILENT, screenReaderInstructions: { draggable: ' ' } }}
      onDragStart={() => useTable.getState().setDrag(true, null)}
      onDragOver={over}
      onDragEnd={end}
      onDragCancel={() => useTable.getState().setDrag(false, null)}
    >
      {children}
      <DragOverlay dropAnimation={null}>{dragging ? <FlyingCard /> : null}</DragOverlay>
    </DndContext>
  );
}

/** What follows the finger while the card is dragged: the card, face down, a little tilted. */
function FlyingCard() {
  return <HitCard mystery size="sm" aria-hidden="true" boxShadow="overlay" transform="rotate(-4deg)" cursor="grabbing" />;
}

/**
 * The mystery card as a drag source while this device places it (`enabled`).
 * Only the pointer listeners: no role, tab stop or description, the card stays
 * what it is for screen readers (its text, in card mode the clue).
 */
export function DraggableCard({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: MYSTERY, disabled: !enabled });
  return (
    <Box
      ref={setNodeRef}
      {...(enabled ? listeners : {})}
      data-draggable={enabled || undefined}
      cursor={enabled ? (isDragging ? 'grabbing' : 'grab') : undefined}
      opacity={isDragging ? 0.4 : 1}
      // a finger's press-and-hold starts the drag; the page keeps its vertical scrolling
      touchAction={enabled ? 'pan-y' : undefined}
      userSelect={enabled ? 'none' : undefined}
      css={{ WebkitTouchCallout: enabled ? 'none' : undefined }}
    >
      {children}
    </Box>
  );
}
