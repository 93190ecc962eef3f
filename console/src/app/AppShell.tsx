import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AppLayoutProps } from '@cloudscape-design/components/app-layout';
import AppLayoutToolbar from '@cloudscape-design/components/app-layout-toolbar';
import BreadcrumbGroup, { type BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import Flashbar from '@cloudscape-design/components/flashbar';
import SideNavigation from '@cloudscape-design/components/side-navigation';
import { strings } from '../i18n/strings';
import { useNotifications } from './notifications';

// Billing and API keys are left out until their pages exist (no "coming soon" entries).
const NAV_ITEMS = [
  { type: 'link', text: strings.nav.instances, href: '/instances' },
  { type: 'link', text: strings.nav.cloudAccounts, href: '/cloud-accounts' },
  { type: 'link', text: strings.nav.billing, href: '/billing' },
  { type: 'link', text: strings.nav.audit, href: '/audit' },
] as const;

export interface AppShellProps {
  breadcrumbs: BreadcrumbGroupProps.Item[];
  content: ReactNode;
  contentType?: AppLayoutProps.ContentType;
  tools?: ReactNode;
}

/** The page's title from its breadcrumbs, most specific first: "orders-prod — Instances — Keel". */
export function pageTitle(breadcrumbs: BreadcrumbGroupProps.Item[]): string {
  return [...breadcrumbs.map((b) => b.text).reverse(), strings.app.title].join(' — ');
}

/**
 * The layout every page shares (as in the Cloudscape demos' commons): navigation, breadcrumbs, notifications, and
 * the browser's title for the page.
 */
export function AppShell({ breadcrumbs, content, contentType = 'default', tools }: AppShellProps) {
  const title = pageTitle(breadcrumbs);
  useEffect(() => {
    document.title = title;
  }, [title]);
  const navigate = useNavigate();
  const location = useLocation();
  const { items } = useNotifications();
  const active = NAV_ITEMS.find((i) => location.pathname.startsWith(i.href))?.href ?? '/instances';
  const follow = (event: CustomEvent<{ href: string; external?: boolean }>) => {
    if (event.detail.external) return;
    event.preventDefault();
    navigate(event.detail.href);
  };
  return (
    <AppLayoutToolbar
      headerSelector="#top-nav"
      contentType={contentType}
      navigation={
        <SideNavigation
          header={{ text: strings.nav.header, href: '/instances' }}
          activeHref={active}
          items={[...NAV_ITEMS]}
          onFollow={follow}
        />
      }
      breadcrumbs={
        <BreadcrumbGroup
          ariaLabel={strings.nav.breadcrumbsLabel}
          items={[{ text: strings.nav.home, href: '/instances' }, ...breadcrumbs]}
          onFollow={follow}
        />
      }
      notifications={<Flashbar data-testid="notifications" items={items} stackItems={items.length > 2} i18nStrings={strings.flashbar} />}
      tools={tools}
      toolsHide={tools === undefined}
      ariaLabels={{
        navigation: strings.nav.navigationLabel,
        navigationClose: strings.nav.closeNavigation,
        navigationToggle: strings.nav.openNavigation,
        notifications: strings.nav.notifications,
        tools: strings.nav.help,
        toolsClose: strings.nav.closeHelp,
        toolsToggle: strings.nav.openHelp,
      }}
      content={content}
    />
  );
}
