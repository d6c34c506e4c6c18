// The tag search box of the video list: Enter searches, the clear button empties the filter.
// Both ask the server, so offline they are disabled with the reason (issue 8).
import { useState } from 'react';
import { ClearIcon } from '../../../components/ActionIcons';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { PlainButton } from '../../../components/PlainButton';
import { useT } from '../../../lib/locale-context';
import styles from './VideoListPage.module.css';

export function TagSearchBox({
  initial,
  onSearch,
}: {
  initial: string;
  onSearch: (value: string) => void;
}) {
  const t = useT();
  const [value, setValue] = useState(initial);
  return (
    <div className={styles.search} role="search">
      <NeedsNetwork>
        <input
          className={styles.searchInput}
          type="search"
          aria-label={t('videos.searchTags')}
          placeholder={t('videos.searchTagsPlaceholder')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onSearch(value);
          }}
        />
      </NeedsNetwork>
      {value !== '' ? (
        <NeedsNetwork>
          <PlainButton
            aria-label={t('videos.clearSearch')}
            variant="ghost"
            size="sm"
            icon
            className={styles.clear}
            onClick={() => {
              setValue('');
              onSearch('');
            }}
          >
            <ClearIcon />
          </PlainButton>
        </NeedsNetwork>
      ) : null}
    </div>
  );
}
