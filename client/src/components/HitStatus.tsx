import { Box, Button, Link, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { hasNamespace, loadNamespace } from '../i18n.ts';
import { hitStatus, useCatalogue } from '../stores/catalogue.ts';
import { CardIcon, CheckIcon } from './icons.tsx';

/**
 * The hit-download indicator (docs/product.md#states): "Preparing music: 57 of 270" while the
 * audio pipeline downloads or processes anything, else "finished", or "no audio
 * yet" (a card, no tick) when no hit has audio; its popover says what the
 * server can play: ready, being prepared, failed, card-only hits, and whether
 * it can download from YouTube at all. Built as a disclosure (a button that shows a panel) rather than a
 * Chakra Popover, whose machinery would cost the first page ~5 kB gzip (P9):
 * the panel holds only text, so it needs no focus trap.
 */
export function HitStatus() {
  const { t } = useTranslation();
  const progress = useCatalogue((s) => s.progress);
  const status = hitStatus(progress);
  // nothing to download or process, and no hit has audio: games are card games, no tick for "ready"
  const noAudio = status === 'finished' && progress?.available === 0;
  // while anything is prepared: how far ("Preparing music: 57 of 270"), the hits already ready counting
  const label =
    status === 'finished' || !progress
      ? t(noAudio ? 'hit_status.no_audio' : 'hit_status.finished')
      : t('hit_status.preparing', { ready: progress.available, total: progress.available + progress.downloading + progress.processing });
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // the status page link's text is in the catalogue screens' messages, fetched when the panel first opens
  const [linkText, setLinkText] = useState(() => hasNamespace('hits'));
  useEffect(() => {
    if (open && !linkText) void loadNamespace('hits').then(() => setLinkText(true), () => undefined);
  }, [open, linkText]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: Event): void => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <Box ref={root} position={{ base: 'static', md: 'relative' }}>
      <Button ref={button} variant="ghost" aria-label={label} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} px={{ base: '2', md: '3' }}>
        {status === 'processing' ? <Spinner size="sm" aria-hidden="true" /> : noAudio ? <CardIcon /> : <CheckIcon />}
        <Box as="span" display={{ base: 'none', lg: 'inline' }}>
          {label}
        </Box>
      </Button>
      <Box
        id={panelId}
        role="region"
        aria-label={label}
        hidden={!open}
        position={{ base: 'fixed', md: 'absolute' }}
        top={{ base: '56px', md: 'calc(100% + 8px)' }}
        insetEnd={{ base: '2', md: '0' }}
        insetStart={{ base: '2', md: 'auto' }}
        w={{ base: 'auto', md: '18rem' }}
        zIndex="popover"
        bg="bg.panel"
        borderWidth="1px"
        borderRadius="l2"
        boxShadow="lg"
        p="4"
      >
        <Text fontWeight="semibold" mb="2">
          {label}
        </Text>
        {!progress ? (
          <Text>{t('hit_status.unknown')}</Text>
        ) : (
          // what the server can play, and what not and why
          <Box as="ul" listStyleType="none" display="flex" flexDirection="column" gap="1">
            <li>{t('hit_status.available', { count: progress.available })}</li>
            {progress.downloading > 0 && <li>{t('hit_status.downloading', { count: progress.downloading })}</li>}
            {progress.processing > 0 && <li>{t('hit_status.processing_count', { count: progress.processing })}</li>}
            {progress.failed > 0 && <li>{t('hit_status.failed', { count: progress.failed })}</li>}
            {progress.cards > 0 && <li>{t('hit_status.cards_count', { count: progress.cards })}</li>}
            {!progress.youtube && progress.cards + progress.failed > 0 && <li>{t('hit_status.youtube_off')}</li>}
            {noAudio && <li>{t('hit_status.cards')}</li>}
          </Box>
        )}
        {linkText && (
          <Link asChild color="accent.fg" mt="2" minH="44px" display="inline-flex" alignItems="center">
            <RouterLink to="/hits/status" onClick={() => setOpen(false)}>
              {t('hits:status.link')}
            </RouterLink>
          </Link>
        )}
      </Box>
    </Box>
  );
}
