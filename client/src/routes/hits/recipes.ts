import {
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  dataListSlotRecipe,
  dialogSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  inputRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  separatorRecipe,
  textareaRecipe,
} from '@chakra-ui/react/theme';
import { registerRecipes, FIELD_STYLES, withTouchSizes } from '../../theme.ts';

/**
 * The Chakra recipes of the catalogue screens that the first page does not
 * load (theme.ts keeps them out of the initial bundle, budget P9). Imported
 * for its effect by every component file here, so each renders styled however
 * it is reached (a route, or a test rendering it alone).
 */
/** A slot recipe whose `field` slot gets `styles` in its base and in every size (each size sets its own text style). */
function withFieldSlot<R extends { base?: { field?: object }; variants?: { size?: Record<string, { field?: object }> } }>(recipe: R, styles: object): R {
  const sizes = Object.fromEntries(Object.entries(recipe.variants?.size ?? {}).map(([name, slots]) => [name, { ...slots, field: { ...slots.field, ...styles } }]));
  return { ...recipe, base: { ...recipe.base, field: { ...recipe.base?.field, ...styles } }, variants: { ...recipe.variants, size: sizes } };
}

registerRecipes({
  recipes: {
    input: withTouchSizes(inputRecipe, FIELD_STYLES),
    checkmark: checkmarkRecipe,
    code: codeRecipe,
    separator: separatorRecipe,
    textarea: withTouchSizes(textareaRecipe, FIELD_STYLES),
  },
  slotRecipes: {
    checkbox: checkboxSlotRecipe,
    dataList: dataListSlotRecipe,
    dialog: dialogSlotRecipe,
    field: fieldSlotRecipe,
    fieldset: fieldsetSlotRecipe,
    list: listSlotRecipe,
    nativeSelect: withFieldSlot(nativeSelectSlotRecipe, { textStyle: FIELD_STYLES.textStyle, colorPalette: FIELD_STYLES.colorPalette, '--focus-ring-width': FIELD_STYLES['--focus-ring-width'] }),
    progress: progressSlotRecipe,
    radioGroup: radioGroupSlotRecipe,
  },
});
