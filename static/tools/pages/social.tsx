import { boot } from '../boot.tsx'
import { SocialCardTool } from '../generate/social-card.tsx'

boot(() => <SocialCardTool />)
