// Who and what is in the selected scene (issue 29): a chip per person recognised (face and name)
// and per object seen (in the user's language), and the text read on screen. A chip runs a scene
// search for that name or object, as the Advanced search does with a description.
import { memo, type ReactNode } from 'react';
import { Thumbnail } from '../../../components/Thumbnail';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { DEFAULT_SEARCH, similarResultsPath } from '../../../lib/search-query';
import type { Scene } from '../api';
import { useObjectName } from '../../../lib/object-names';
import styles from './SceneChips.module.css';

/** Where a chip goes: the scenes matching that text. */
export const chipSearchPath = (text: string): string =>
  similarResultsPath({ ...DEFAULT_SEARCH, video: false, description: text });

export const SceneChips = memo(function SceneChips({ scene }: { scene: Scene }) {
  const t = useT();
  const objectName = useObjectName();
  const people = scene.people ?? [];
  const objects = [...new Set(scene.objects ?? [])];
  const screenText = scene.screenText?.trim() ?? '';
  if (people.length === 0 && objects.length === 0 && !screenText) return null;
  return (
    <div className={styles.groups} data-testid="scene-chips">
      {people.length > 0 ? (
        <ChipList label={t('chips.people')}>
          {people.map((person) => (
            <li key={person.name}>
              <button
                type="button"
                className={styles.chip}
                aria-label={t('chips.searchFor', { text: person.name })}
                onClick={() => navigateTo(chipSearchPath(person.name))}
              >
                <Thumbnail
                  src={assetUrl(person.faceThumbnail)}
                  alt=""
                  width={24}
                  height={24}
                  className={styles.face}
                />
                {person.name}
              </button>
            </li>
          ))}
        </ChipList>
      ) : null}
      {objects.length > 0 ? (
        <ChipList label={t('chips.objects')}>
          {objects.map((key) => {
            const name = objectName(key);
            return (
              <li key={key}>
                <button
                  type="button"
                  className={styles.chip}
                  aria-label={t('chips.searchFor', { text: name })}
                  onClick={() => navigateTo(chipSearchPath(name))}
                >
                  {name}
                </button>
              </li>
            );
          })}
        </ChipList>
      ) : null}
      {screenText ? (
        <p className={styles.screenText} data-testid="screen-text">
          <span className={styles.label}>{t('chips.screenText')}</span> {screenText}
        </p>
      ) : null}
    </div>
  );
});

function ChipList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.group}>
      <span className={styles.label} aria-hidden="true">
        {label}
      </span>
      <ul className={styles.chips} aria-label={label}>
        {children}
      </ul>
    </div>
  );
}
