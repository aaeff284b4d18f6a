import { Button, Fieldset, HStack, SegmentGroup, Slider, Stack, Switch, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { applyLanguage, i18next } from '../i18n.ts';
import { COLOR_SCHEMES, LANGUAGES, useSettings, volumeToNumber, type ColorScheme, type Language } from '../stores/settings.ts';
import { useUi } from '../stores/ui.ts';
import { AppDialog } from './AppDialog.tsx';
import { fieldsetSlotRecipe, segmentGroupSlotRecipe, sliderSlotRecipe, switchSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { fieldset: fieldsetSlotRecipe, segmentGroup: segmentGroupSlotRecipe, slider: sliderSlotRecipe, switch: switchSlotRecipe } });

/** A 0–100 slider over a volume stored as a fraction of 1. */
function VolumeSlider({ label, value, onChange }: { label: string; value: string; onChange: (fraction: number) => void }) {
  const percent = Math.round(volumeToNumber(value) * 100);
  return (
    <Slider.Root
      colorPalette="accent"
      value={[percent]}
      min={0}
      max={100}
      step={1}
      onValueChange={(e) => onChange((e.value[0] ?? percent) / 100)}
      getAriaValueText={(d) => `${d.value} %`}
    >
      <HStack justify="space-between">
        <Slider.Label>{label}</Slider.Label>
        <Slider.ValueText />
      </HStack>
      <Slider.Control minH="44px">
        <Slider.Track>
          <Slider.Range />
        </Slider.Track>
        <Slider.Thumbs />
      </Slider.Control>
    </Slider.Root>
  );
}

/**
 * The settings dialog (docs/product.md#screens): music and effects volume (0–100, stored as
 * fractions), the game's choices as a list (radio buttons instead of the gaps
 * of the row of cards), the ticking countdown (off by default), language (each
 * button named in its own language, and marked up in it so screen readers
 * pronounce it right), colour scheme.
 */
export function SettingsDialog() {
  const { t } = useTranslation();
  const open = useUi((s) => s.dialog === 'settings');
  const close = useUi((s) => s.closeDialog);
  const settings = useSettings();

  const chooseLanguage = (language: Language): void => {
    settings.setLanguage(language);
    void applyLanguage(language);
  };

  return (
    <AppDialog open={open} onClose={close} title={t('settings.title')} footer={<Button onClick={close}>{t('common.close')}</Button>}>
      <Stack gap="6">
        <VolumeSlider label={t('settings.music_volume')} value={settings.musicVolume} onChange={settings.setMusicVolume} />
        <VolumeSlider label={t('settings.sfx_volume')} value={settings.sfxVolume} onChange={settings.setSfxVolume} />
        <SettingSwitch id="choices-as-list" label={t('settings.choices_as_list')} help={t('settings.choices_as_list_help')} checked={settings.choicesAsList} onChange={settings.setChoicesAsList} />
        <SettingSwitch id="countdown-ticks" label={t('settings.countdown_ticks')} help={t('settings.countdown_ticks_help')} checked={settings.countdownTicks} onChange={settings.setCountdownTicks} />
        <Fieldset.Root>
          <Fieldset.Legend>{t('settings.language')}</Fieldset.Legend>
          <HStack gap="2" wrap="wrap" mt="2">
            {LANGUAGES.map((lng) => {
              const active = (settings.language ?? i18next.language) === lng;
              return (
                <Button key={lng} lang={lng} variant={active ? 'solid' : 'outline'} colorPalette={active ? 'accent' : 'gray'} aria-pressed={active} onClick={() => chooseLanguage(lng)}>
                  {t(`language.${lng}`, { lng })}
                </Button>
              );
            })}
          </HStack>
        </Fieldset.Root>
        <Fieldset.Root>
          <Fieldset.Legend id="color-scheme-label">{t('settings.color_scheme')}</Fieldset.Legend>
          <SegmentGroup.Root
            mt="2"
            aria-labelledby="color-scheme-label"
            value={settings.colorScheme}
            onValueChange={(e) => {
              if (e.value) settings.setColorScheme(e.value as ColorScheme);
            }}
          >
            <SegmentGroup.Indicator />
            <SegmentGroup.Items items={COLOR_SCHEMES.map((scheme) => ({ value: scheme, label: t(`settings.scheme_${scheme}`) }))} />
          </SegmentGroup.Root>
        </Fieldset.Root>
      </Stack>
    </AppDialog>
  );
}

/** A switch with its explanation below it, read with it by screen readers. */
function SettingSwitch({ id, label, help, checked, onChange }: { id: string; label: string; help: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <Stack gap="1">
      <Switch.Root checked={checked} onCheckedChange={(e) => onChange(e.checked)} colorPalette="accent" minH="44px">
        <Switch.HiddenInput aria-describedby={`${id}-help`} />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>{label}</Switch.Label>
      </Switch.Root>
      <Text id={`${id}-help`} textStyle="sm" color="fg.muted">
        {help}
      </Text>
    </Stack>
  );
}
