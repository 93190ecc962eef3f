import TopNavigation from '@cloudscape-design/components/top-navigation';
import { strings } from '../i18n/strings';
import { useSession } from './session';

/** Top bar: product name, organization switcher (from the caller's memberships) and user menu. */
export function TopNav() {
  const { organization, switchOrganization, signOut } = useSession();
  const others = organization.memberships.filter((m) => m.slug !== organization.slug);
  return (
    <div id="top-nav" style={{ position: 'sticky', top: 0, zIndex: 1002 }}>
      <TopNavigation
        identity={{ href: '/instances', title: strings.app.title }}
        i18nStrings={{ overflowMenuTriggerText: strings.nav.moreMenu, overflowMenuTitleText: strings.nav.allMenus }}
        utilities={[
          {
            type: 'menu-dropdown',
            text: organization.slug,
            description: strings.nav.role(organization.role),
            ariaLabel: `${strings.nav.organization}: ${organization.slug}`,
            iconName: 'group',
            items: [
              {
                id: 'orgs',
                text: strings.nav.switchOrg,
                items: organization.memberships.map((m) => ({
                  id: `org:${m.slug}`,
                  text: `${m.slug} (${m.role})`,
                  disabled: m.slug === organization.slug,
                })),
              },
            ],
            disableUtilityCollapse: others.length > 0,
            onItemClick: (event) => {
              const id = event.detail.id;
              if (id.startsWith('org:')) switchOrganization(id.slice(4));
            },
          },
          {
            type: 'menu-dropdown',
            text: organization.user.username,
            description: organization.user.email ?? undefined,
            ariaLabel: `${organization.user.username} (${strings.nav.userMenu})`,
            iconName: 'user-profile',
            items: [{ id: 'signout', text: strings.nav.signOut }],
            onItemClick: (event) => {
              if (event.detail.id === 'signout') signOut();
            },
          },
        ]}
      />
    </div>
  );
}
