import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// findBy/waitFor give up after 1 s by default; a CI machine whose two cores run the server
// tests at the same time needs longer for a screen to answer. A failing wait still fails.
configure({ asyncUtilTimeout: 5_000 });
