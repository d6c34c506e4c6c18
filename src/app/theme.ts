// A Chakra system with only the recipes and colour palettes this app uses: the full default theme
// carries every component's styles and would push the first screen over its size budget (see
// STACK.md), and every token costs time when the system is built on each page load (issue 8).
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  breakpoints,
  buttonRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  globalCss,
  headingRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  semanticTokens,
  spinnerRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

/** Palettes no screen uses (colorPalette and colour tokens use gray, red, orange, green, blue). */
const UNUSED_PALETTES = new Set(['yellow', 'teal', 'cyan', 'purple', 'pink']);

function usedPalettes<T extends object>(colors: T): T {
  return Object.fromEntries(
    Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.has(name)),
  ) as T;
}

/**
 * The app has no dark mode (nothing sets Chakra's `dark` class): semantic tokens keep their light
 * value only, which drops a block of unused variables from the global CSS and work from the
 * system's token build.
 */
function lightOnly<T>(tokens: T): T {
  if (typeof tokens !== 'object' || tokens === null) return tokens;
  const node = tokens as Record<string, unknown>;
  const value = node.value as Record<string, unknown> | undefined;
  if (value && typeof value === 'object' && '_light' in value)
    return { ...node, value: value._light } as T;
  return Object.fromEntries(
    Object.entries(node).map(([key, child]) => [key, lightOnly(child)]),
  ) as T;
}

const appConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: usedPalettes(tokens.colors) },
    semanticTokens: lightOnly({ ...semanticTokens, colors: usedPalettes(semanticTokens.colors) }),
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      button: buttonRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      link: linkRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      list: listSlotRecipe,
    },
  },
});

export const createAppSystem = () => createSystem(defaultBaseConfig, appConfig);

/** The system, built once when first used. */
let built: ReturnType<typeof createAppSystem> | undefined;
export const appSystem = (): ReturnType<typeof createAppSystem> => (built ??= createAppSystem());
