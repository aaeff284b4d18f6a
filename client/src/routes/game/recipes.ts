import {
  checkboxSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  inputRecipe,
  radioGroupSlotRecipe,
  segmentGroupSlotRecipe,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';
import { registerRecipes, FIELD_STYLES, withTouchSizes } from '../../theme.ts';

/**
 * The recipes of the Chakra components the game screen uses beyond the first
 * page's (theme.ts keeps those out of the initial bundle, budget P9). Every
 * module of the screen imports this first, so the recipes are there before any
 * of its components renders. Dialogs register theirs in AppDialog.
 */
registerRecipes({
  recipes: { input: withTouchSizes(inputRecipe, FIELD_STYLES) },
  slotRecipes: {
    checkbox: checkboxSlotRecipe,
    field: fieldSlotRecipe,
    fieldset: fieldsetSlotRecipe,
    radioGroup: radioGroupSlotRecipe,
    segmentGroup: segmentGroupSlotRecipe,
    tooltip: tooltipSlotRecipe,
  },
});
