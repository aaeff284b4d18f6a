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
  separatorRecipe,
} from '@chakra-ui/react/theme';
import { registerRecipes, FIELD_STYLES, withTouchSizes } from '../../theme.ts';

/**
 * The Chakra recipes of the catalogue screens that the first page does not
 * load (theme.ts keeps them out of the initial bundle, budget P9). Imported
 * for its effect by every component file here, so each renders styled however
 * it is reached (a route, or a test rendering it alone).
 */
registerRecipes({
  recipes: {
    input: withTouchSizes(inputRecipe, FIELD_STYLES),
    checkmark: checkmarkRecipe,
    code: codeRecipe,
    separator: separatorRecipe,
  },
  slotRecipes: {
    checkbox: checkboxSlotRecipe,
    dataList: dataListSlotRecipe,
    dialog: dialogSlotRecipe,
    field: fieldSlotRecipe,
    fieldset: fieldsetSlotRecipe,
    list: listSlotRecipe,
    nativeSelect: { ...nativeSelectSlotRecipe, base: { ...nativeSelectSlotRecipe.base, field: { ...nativeSelectSlotRecipe.base?.field, textStyle: FIELD_STYLES.textStyle, colorPalette: FIELD_STYLES.colorPalette, '--focus-ring-width': FIELD_STYLES['--focus-ring-width'] } } },
    progress: progressSlotRecipe,
  },
});
