// The only keys the app keeps in the browser (product-spec section 3). No cookies.
export const USER_STORAGE_KEY = 'user';
export const LANGUAGE_STORAGE_KEY = 'language';
/** Where a signed-out visitor wanted to go; read once after login. */
export const RETURN_TO_STORAGE_KEY = 'returnTo';
