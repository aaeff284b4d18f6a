import { Box, Button, chakra, Field, Flex, NativeSelect, Text } from '@chakra-ui/react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { useId, useMemo, useRef } from 'react';
import type { SortKey } from '../../../../shared/protocol/catalogue.ts';
import './recipes.ts';
import type { SortDirection } from './url-state.ts';
import { useHitsT } from './use-hits.ts';

/** docs/product.md#limits: one arrow key press moves a picked-up sort field by 25 px. */
export const KEYBOARD_STEP_PX = 25;

/** Arrow keys move the picked-up field {@link KEYBOARD_STEP_PX} in their direction; other keys do nothing. */
export const keyboardStep: KeyboardCoordinateGetter = (event, { currentCoordinates: c }) => {
  switch (event.code) {
    case 'ArrowRight':
      return { ...c, x: c.x + KEYBOARD_STEP_PX };
    case 'ArrowLeft':
      return { ...c, x: c.x - KEYBOARD_STEP_PX };
    case 'ArrowDown':
      return { ...c, y: c.y + KEYBOARD_STEP_PX };
    case 'ArrowUp':
      return { ...c, y: c.y - KEYBOARD_STEP_PX };
    default:
      return undefined;
  }
};

/** The fields in a new priority after dragging `active` onto `over` (unchanged when either is unknown or they are the same). */
export function reorder(keys: readonly SortKey[], active: UniqueIdentifier, over: UniqueIdentifier | null | undefined): SortKey[] {
  const from = keys.indexOf(active as SortKey);
  const to = over === null || over === undefined ? -1 : keys.indexOf(over as SortKey);
  if (from < 0 || to < 0 || from === to) return [...keys];
  return arrayMove([...keys], from, to);
}

function SortChip({ id, position, label }: { id: SortKey; position: number; label: string }) {
  const t = useHitsT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    attributes: { roleDescription: t('sort.role') },
  });
  return (
    <chakra.li
      ref={setNodeRef}
      listStyleType="none"
      position="relative"
      zIndex={isDragging ? 1 : undefined}
      style={{ transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined, transition }}
    >
      <Button
        ref={setActivatorNodeRef}
        variant={isDragging ? 'solid' : 'outline'}
        colorPalette={isDragging ? 'accent' : 'gray'}
        size="sm"
        cursor={isDragging ? 'grabbing' : 'grab'}
        touchAction="none"
        {...attributes}
        {...listeners}
      >
        <Box as="span" aria-hidden="true" color={isDragging ? undefined : 'fg.muted'} fontSize="xs">
          ⠿
        </Box>
        <span>
          {position}. {label}
        </span>
      </Button>
    </chakra.li>
  );
}

/**
 * The sort priority (docs/product.md#screens): the four fields in order, reordered by drag or
 * by keyboard (focus a field, Space or Enter to pick it up, arrows move it
 * 25 px a step, Space or Enter drops it, Escape cancels; screen readers hear
 * each step), and ascending or descending. Every change restarts at page 1
 * (the caller writes the address).
 */
export function SortPriority({
  sortBy,
  direction,
  onChange,
}: {
  sortBy: readonly SortKey[];
  direction: SortDirection;
  onChange: (sortBy: SortKey[], direction: SortDirection) => void;
}) {
  const t = useHitsT();
  const legendId = useId();
  const sensors = useSensors(
    // a few pixels of movement before a drag starts, so a click stays a click
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardStep }),
  );
  const name = (id: UniqueIdentifier): string => t(`fields.${String(id)}`);

  const lastOverRef = useRef<UniqueIdentifier | null>(null);
  // what screen readers hear while a field is dragged (dnd-kit's live region), in the reader's language
  const announcements = useMemo<Announcements>(() => {
    const field = (id: UniqueIdentifier): string => t(`fields.${String(id)}`);
    const position = (id: UniqueIdentifier): number => sortBy.indexOf(id as SortKey) + 1;
    const count = sortBy.length;
    // dnd-kit reports "over" on every step, starting with the field's own place: only a new place is news.
    // A ref, not a local: a language load mid-drag makes a new set of announcements, and the own place is still old news.
    const lastOver = lastOverRef;
    return {
      onDragStart: ({ active }) => {
        lastOver.current = active.id;
        return t('sort.picked_up', { field: field(active.id), position: position(active.id), count });
      },
      onDragOver: ({ active, over }) => {
        if ((over?.id ?? null) === lastOver.current) return undefined;
        lastOver.current = over?.id ?? null;
        return over ? t('sort.moved', { field: field(active.id), position: position(over.id), count }) : t('sort.outside', { field: field(active.id) });
      },
      onDragEnd: ({ active, over }) =>
        over ? t('sort.dropped', { field: field(active.id), position: position(over.id), count }) : t('sort.cancelled', { field: field(active.id) }),
      onDragCancel: ({ active }) => t('sort.cancelled', { field: field(active.id) }),
    };
  }, [t, sortBy]);

  const end = ({ active, over }: DragEndEvent): void => {
    const next = reorder(sortBy, active.id, over?.id);
    if (next.some((k, i) => k !== sortBy[i])) onChange(next, direction);
  };

  return (
    <Flex gap="3" wrap="wrap" align="flex-end">
      <Box role="group" aria-labelledby={legendId}>
        <Text id={legendId} fontWeight="medium" textStyle="sm" mb="1.5">
          {t('sort.label')}
        </Text>
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={end}
          accessibility={{ announcements, screenReaderInstructions: { draggable: t('sort.instructions') } }}
        >
          <SortableContext items={[...sortBy]} strategy={rectSortingStrategy}>
            <Flex as="ol" gap="2" wrap="wrap" m="0" p="0">
              {sortBy.map((key, i) => (
                <SortChip key={key} id={key} position={i + 1} label={name(key)} />
              ))}
            </Flex>
          </SortableContext>
        </DndContext>
      </Box>
      <Field.Root w="auto">
        <Field.Label>{t('sort.direction')}</Field.Label>
        <NativeSelect.Root size="sm" w="auto">
          <NativeSelect.Field
            name="sort_direction"
            value={direction}
            minH="44px"
            onChange={(e) => onChange([...sortBy], e.target.value === 'descending' ? 'descending' : 'ascending')}
          >
            <option value="ascending">{t('sort.ascending')}</option>
            <option value="descending">{t('sort.descending')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
    </Flex>
  );
}
