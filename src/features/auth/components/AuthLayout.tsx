// The blank layout of the sign-in pages: a centred card with the language switcher. Plain
// elements with a CSS module: Login is a first screen and loads without Chakra (issue 8).
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '../../../components/LanguageSwitcher';
import { RouteLink } from '../../../components/RouteLink';
import { ROUTES } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';
import styles from './AuthLayout.module.css';

export { styles as authStyles };

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <RouteLink href={ROUTES.home} className={styles.home}>
          {t('app.name')}
        </RouteLink>
        <LanguageSwitcher />
      </header>
      <main className={styles.main}>
        <div className={styles.card}>
          <h1 className={styles.title}>{title}</h1>
          {children}
        </div>
      </main>
      <footer className={styles.footer}>
        <RouteLink href={ROUTES.privacyPolicy} className={`${styles.link} ${styles.muted}`}>
          {t('nav.privacy')}
        </RouteLink>
      </footer>
    </div>
  );
}
