// Paths of the route table (product-spec section 2), shared by links, guards and the router.

export const ROUTES = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  privacyPolicy: '/privacy-policy',
  profile: '/profile',
  videoList: '/video',
  videoDetail: '/video-detail/:id',
  sceneFrames: '/video-detail/:id/scene/:sceneIndex/frames',
  advancedSearch: '/advanced-search/:videoId?',
  similarVideo: '/video/similar/:videoId?',
  people: '/people',
  person: '/people/:id',
  notFound: '/404',
} as const;

/** Pages a signed-in user is sent away from. */
export const SIGNED_OUT_ONLY_PATHS: readonly string[] = [
  ROUTES.login,
  ROUTES.forgotPassword,
  ROUTES.resetPassword,
];

/** Pages anyone may see; every other page sends a signed-out visitor to Login (section 2). */
export const PUBLIC_PATHS: readonly string[] = [ROUTES.home, ROUTES.privacyPolicy];

/** The query parameter carried through redirects (product-spec section 2). */
export const CARRIED_QUERY_PARAM = 'tsiletihw';

export const PROFILE_SECTIONS = [
  'ACCOUNT',
  'CHANGE_EMAIL',
  'CHANGE_PASSWORD',
  'EXPORT_PROFILE',
  'DELETE_ACCOUNT',
] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

export const profilePath = (section: ProfileSection): string =>
  `${ROUTES.profile}?type=${section.toLowerCase()}`;

export const videoDetailPath = (id: string | number): string =>
  `/video-detail/${encodeURIComponent(String(id))}`;

export const sceneFramesPath = (id: string | number, sceneIndex: number): string =>
  `${videoDetailPath(id)}/scene/${sceneIndex}/frames`;

export const videoDetailScenePath = (id: string | number, sceneIndex: number): string =>
  `${videoDetailPath(id)}?sceneIndex=${sceneIndex}`;

export const personPath = (id: string): string => `/people/${encodeURIComponent(id)}`;

/** Issue 29's deep link: the detail with the scene selected and the full player at `seconds`. */
export const videoSceneAtPath = (id: string, sceneIndex: number, seconds: number): string =>
  `${videoDetailScenePath(id, sceneIndex)}&t=${seconds}`;

/** A scene hit (issue 29): the detail with the scene selected and its clip playing from its start. */
export const videoScenePlayPath = (id: string | number, sceneIndex: number): string =>
  `${videoDetailScenePath(id, sceneIndex)}&play=1`;
